import { useEffect, useRef, useState } from 'preact/hooks';
import { ApiError, configureClient, get, post } from './api/client';
import { errorText } from './format';

/** Sign in: a 6-digit code by e-mail (or the mailed link `?email=&code=`), or a passkey. `?invitation=` is accepted after. */
export function SignIn({ onSignedIn }: { onSignedIn: () => void | Promise<void> }) {
  const params = new URLSearchParams(location.search);
  const invitation = params.get('invitation');
  const [email, setEmail] = useState(params.get('email') ?? '');
  const [code, setCode] = useState(params.get('code') ?? '');
  const [step, setStep] = useState<'email' | 'code'>(params.get('code') || (invitation && params.get('email')) ? 'code' : 'email');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>('');
  const [notice, setNotice] = useState<string>('');
  const heading = useRef<HTMLHeadingElement>(null);
  const codeInput = useRef<HTMLInputElement>(null);

  useEffect(() => {
    document.title = 'Sign in · Dashboard';
    heading.current?.focus();
    if (params.get('email') && params.get('code')) void verify();
    else if (invitation && params.get('email')) void sendCode();
  }, []);

  // The code field takes the focus once the code is on its way (keyboard users type it straight in).
  useEffect(() => {
    if (step === 'code') codeInput.current?.focus();
  }, [step]);

  async function attempt(work: () => Promise<void>) {
    setBusy(true);
    setError('');
    try {
      await work();
    } catch (caught) {
      setError(caught instanceof ApiError && caught.code === 'RATE_LIMITED' ? `${caught.message}. Wait a moment, then ask for a new code.` : errorText(caught));
    } finally {
      setBusy(false);
    }
  }

  /** With the session cookie set: the CSRF token, then the invitation (if the link carried one). */
  async function finish() {
    const session = await get('auth/session');
    configureClient({ csrfToken: session.csrf_token });
    if (invitation) {
      const { workspace } = await post('invitations/accept', { token: invitation });
      localStorage.setItem('dashboard.workspace', workspace.id);
    }
    await onSignedIn();
  }

  function sendCode() {
    return attempt(async () => {
      await post('auth/email/start', { email: email.trim() });
      setStep('code');
      setNotice(`If ${email.trim()} has an account or an invitation, a 6-digit code is on its way. It works for 10 minutes.`);
    });
  }

  function verify() {
    return attempt(async () => {
      await post('auth/email/verify', { email: email.trim(), code: code.trim() });
      await finish();
    });
  }

  function passkey() {
    return attempt(async () => {
      const { startAuthentication } = await import('@simplewebauthn/browser');
      const { options, challenge_id } = await post('auth/passkey/signin_options', {});
      const response = await startAuthentication({ optionsJSON: options as never });
      await post('auth/passkey/signin', { challenge_id, response: response as unknown as Record<string, unknown> });
      await finish();
    });
  }

  return (
    <main id="main" class="signin">
      <h1 tabIndex={-1} ref={heading}>
        Sign in
      </h1>
      {invitation ? <p class="intro">You were invited to a workspace. Sign in with the e-mail address the invitation was sent to, and you are in.</p> : null}
      {step === 'email' ? (
        <form
          onSubmit={(event) => {
            event.preventDefault();
            void sendCode();
          }}
        >
          <label for="email">E-mail address</label>
          <input
            id="email"
            name="email"
            type="email"
            autocomplete="username webauthn"
            required
            value={email}
            onInput={(event) => setEmail(event.currentTarget.value)}
          />
          <button type="submit" class="primary" disabled={busy}>
            Send me a code
          </button>
        </form>
      ) : (
        <form
          onSubmit={(event) => {
            event.preventDefault();
            void verify();
          }}
        >
          {notice ? (
            <p class="note" role="status">
              {notice}
            </p>
          ) : null}
          <label for="code">6-digit code for {email}</label>
          <input
            ref={codeInput}
            id="code"
            name="code"
            inputMode="numeric"
            autocomplete="one-time-code"
            pattern="\d{6}"
            maxLength={6}
            required
            value={code}
            onInput={(event) => setCode(event.currentTarget.value)}
          />
          <button type="submit" class="primary" disabled={busy}>
            Sign in
          </button>
          <button type="button" class="quiet" disabled={busy} onClick={() => void sendCode()}>
            Send a new code
          </button>
          <button type="button" class="quiet" onClick={() => setStep('email')}>
            Use another address
          </button>
        </form>
      )}
      <div class="or" aria-hidden="true">
        or
      </div>
      <button type="button" class="passkey" disabled={busy} onClick={() => void passkey()}>
        Sign in with a passkey
      </button>
      {error ? (
        <p class="error" role="alert">
          {error}
        </p>
      ) : null}
    </main>
  );
}
