import { useState } from 'preact/hooks';
import { get, post } from '../api/client';
import { useApp } from '../session';
import { ActionForm, Confirm, ErrorNote, Loading, Screen } from '../components';
import { useAction, useLoad } from '../hooks';
import { when } from '../format';

export default function Account() {
  const app = useApp();
  const [displayName, setDisplayName] = useState(app.session.user.display_name);
  const [savedName, setSavedName] = useState<string | null>(null);
  const [removing, setRemoving] = useState<{ id: string; name: string } | null>(null);
  const rename = useAction(async () => {
    setSavedName(null);
    const { user } = await post('auth/profile_update', { display_name: displayName.trim() });
    setDisplayName(user.display_name);
    setSavedName(user.display_name);
    app.updateUser(user);
  });
  const passkeys = useLoad(() => get('auth/passkey/list'), []);
  const add = useAction(async () => {
    const { startRegistration } = await import('@simplewebauthn/browser');
    const options = await post('auth/passkey/register_options');
    const response = await startRegistration({ optionsJSON: options as never });
    await post('auth/passkey/register', { response: response as unknown as Record<string, unknown>, name: passkeyName() });
    passkeys.reload();
  });
  const remove = useAction(async (id: string) => {
    await post('auth/passkey/delete', { passkey_id: id });
    passkeys.reload();
  });
  const everywhere = useAction(async () => {
    await post('auth/signout_all');
    location.reload();
  });
  return (
    <Screen title="Account" intro={`Signed in as ${app.session.user.email}.`}>
      <h2>Profile</h2>
      <ActionForm class="panel row wrap" onSubmit={rename.run}>
        <span class="grow">
          <label for="display-name">Display name</label>
          <input
            id="display-name"
            required
            maxLength={80}
            autoComplete="name"
            aria-describedby="display-name-hint"
            value={displayName}
            onInput={(event) => setDisplayName(event.currentTarget.value)}
          />
          <span id="display-name-hint" class="muted small block">
            What the other members of your workspaces see, up to 80 characters.
          </span>
        </span>
        <button type="submit" class="primary" disabled={rename.busy || !displayName.trim()}>
          Save name
        </button>
      </ActionForm>
      {savedName !== null ? (
        <p class="note" role="status">
          Your display name is now {savedName}.
        </p>
      ) : null}
      <ErrorNote error={rename.error} />
      <h2>Passkeys</h2>
      <p>A passkey signs you in with your device's screen lock, without a code.</p>
      {passkeys.loading && !passkeys.data ? <Loading what="passkeys" /> : null}
      <ErrorNote error={passkeys.error ?? add.error ?? remove.error} />
      {passkeys.data && passkeys.data.passkeys.length === 0 ? <p class="muted">No passkey yet.</p> : null}
      <ul class="passkeys">
        {passkeys.data?.passkeys.map((passkey) => (
          <li key={passkey.id} class="row spread">
            <span>
              {passkey.name}{' '}
              <span class="muted small">
                added {when(passkey.created_at)}, last used {passkey.last_used_at ? when(passkey.last_used_at) : 'never'}
              </span>
            </span>
            <button
              type="button"
              class="danger"
              aria-label={`Remove passkey ${passkey.name}`}
              onClick={() => setRemoving({ id: passkey.id, name: passkey.name })}
            >
              Remove
            </button>
          </li>
        ))}
      </ul>
      <button type="button" class="primary" disabled={add.busy} onClick={() => void add.run()}>
        Add a passkey
      </button>
      <Confirm
        subject={removing}
        title="Remove this passkey?"
        body={(passkey) => `“${passkey.name}” will no longer sign you in. You can still sign in with a code sent to ${app.session.user.email}.`}
        confirmLabel="Remove passkey"
        onClose={() => setRemoving(null)}
        onConfirm={(passkey) => void remove.run(passkey.id)}
      />
      <h2>Sessions</h2>
      <p>Signed in on a device you no longer use? Sign out of every session, this one included.</p>
      <button type="button" class="danger" disabled={everywhere.busy} onClick={() => void everywhere.run()}>
        Sign out everywhere
      </button>
      <ErrorNote error={everywhere.error} />
    </Screen>
  );
}

function passkeyName(): string {
  const platform = (navigator as Navigator & { userAgentData?: { platform?: string } }).userAgentData?.platform || navigator.platform || 'this device';
  return `Passkey on ${platform}`.slice(0, 80);
}
