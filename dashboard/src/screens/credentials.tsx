import { useState } from 'preact/hooks';
import { get, post } from '../api/client';
import { ActionButton, ActionForm, Confirm, DataTable, ErrorNote, KeyCells, Loading, RoleNote, Screen, SecretOnce } from '../components';
import { useAction, useLoad } from '../hooks';
import { when } from '../format';

export default function Credentials() {
  const keys = useLoad(() => get('keys/list'), []);
  const [name, setName] = useState('');
  const [secret, setSecret] = useState<string | null>(null);
  const [revoking, setRevoking] = useState<{ id: string; name: string } | null>(null);
  const create = useAction(async () => {
    const created = await post('keys/create', { name: name.trim() || 'Dashboard key' });
    setSecret(created.secret ?? null);
    setName('');
    keys.reload();
  });
  // A revocation answers once no instance of the API admits the key any more (about a second): the row shows it busy.
  const [revokingId, setRevokingId] = useState<string | null>(null);
  const revoke = useAction(async (id: string) => {
    setRevokingId(id);
    try {
      await post('keys/revoke', { key_id: id });
      keys.reload();
    } finally {
      setRevokingId(null);
    }
  });
  return (
    <Screen title="Credentials" trail="Developers" intro="API keys act for the whole workspace with admin rights. Keep them on servers, never in a page.">
      <RoleNote permission="manage" action="creating or revoking keys" />
      {secret ? <SecretOnce title="Your new API key" value={secret} onDone={() => setSecret(null)} /> : null}
      <ActionForm class="panel row wrap" onSubmit={create.run}>
        <span class="grow">
          <label for="key-name">Key name</label>
          <input id="key-name" value={name} maxLength={80} placeholder="e.g. CRM sync" onInput={(event) => setName(event.currentTarget.value)} />
        </span>
        <ActionButton type="submit" permission="manage" variant="primary" busy={create.busy}>
          Create Key
        </ActionButton>
      </ActionForm>
      <ErrorNote error={create.error ?? revoke.error} />
      {keys.loading && !keys.data ? <Loading what="keys" /> : null}
      <ErrorNote error={keys.error} />
      <DataTable caption="API keys" columns={['Name', 'Key', 'Created', 'Last used', '']} empty={keys.data?.keys.length === 0 && 'No keys yet.'}>
        {keys.data?.keys.map((key) => (
          <tr key={key.id} data-key-id={key.id}>
            <KeyCells name={key.name} prefix={key.prefix} last4={key.last4} />
            <td>{when(key.created_at)}</td>
            <td>{key.last_used_at ? when(key.last_used_at) : 'Never'}</td>
            <td>
              {key.revoked_at ? (
                <span class="badge failed">Revoked {when(key.revoked_at)}</span>
              ) : (
                <ActionButton
                  permission="manage"
                  variant="danger"
                  label={`Revoke ${key.name}`}
                  busy={revokingId === key.id}
                  onClick={() => setRevoking({ id: key.id, name: key.name })}
                >
                  Revoke
                </ActionButton>
              )}
            </td>
          </tr>
        ))}
      </DataTable>
      <Confirm
        subject={revoking}
        title="Revoke this key?"
        body={(key) => `Every program using “${key.name}” stops working at once. This cannot be undone.`}
        confirmLabel="Revoke key"
        onClose={() => setRevoking(null)}
        onConfirm={(key) => void revoke.run(key.id)}
      />
    </Screen>
  );
}
