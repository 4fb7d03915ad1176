import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../../../test/browser/chromium';
import { openApiProblems } from '../support/openapi';
import { usePlatform, type ApiResponse } from '../support/platform';
import { addPerson, call } from './helpers';

/**
 * The REST API from inside the page (the browser keeps the cookie and sends Origin itself), with the CSRF token and
 * workspace once known. Runs in the page: no closure over test variables.
 */
async function api(page: Page, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<ApiResponse> {
  const answer = await page.evaluate(
    async ([p, b, h]) => {
      const response = await fetch(`/en/api/v1/${p}/`, {
        method: b === undefined ? 'GET' : 'POST',
        headers: { ...(b === undefined ? {} : { 'content-type': 'application/json' }), ...h },
        ...(b === undefined ? {} : { body: JSON.stringify(b) }),
      });
      return { status: response.status, body: await response.json() };
    },
    [path, body, headers] as const,
  );
  // Headers stay in the page; the answers checked here are status and body.
  return { ...(answer as Omit<ApiResponse, 'headers'>), headers: new Headers() };
}

async function signInByCode(page: Page, email: string): Promise<string> {
  expect((await api(page, 'auth/email/start', { email })).status).toBe(200);
  const code = await page.evaluate(async (to) => {
    const { mail } = (await (await fetch('/dev/mail.json')).json()) as { mail: { to: string; subject: string }[] };
    return /(\d{6})/.exec(mail.find((m) => m.to === to)!.subject)![1]!;
  }, email);
  expect((await api(page, 'auth/email/verify', { email, code })).status).toBe(200);
  const session = await api(page, 'auth/session');
  return (session.body.data as { csrf_token: string }).csrf_token;
}

describe('passkeys in a real browser (Chromium virtual authenticator), on localhost', () => {
  const ctx = usePlatform();
  let browser: Browser;
  beforeAll(async () => void (browser = await launchChromium()));
  afterAll(async () => browser?.close());

  it('registers a passkey with a session and signs in with it; the challenge works once', async () => {
    await addPerson(ctx.platform, 'keyholder@demo.example', 'member');
    const page = await (await browser.newContext()).newPage();
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('WebAuthn.enable');
    await cdp.send('WebAuthn.addVirtualAuthenticator', {
      options: {
        protocol: 'ctap2',
        transport: 'internal',
        hasResidentKey: true,
        hasUserVerification: true,
        isUserVerified: true,
        automaticPresenceSimulation: true,
      },
    });
    // localhost, not the bound 127.0.0.1: WebAuthn refuses IP addresses as relying party.
    const port = new URL(ctx.platform.url).port;
    await page.goto(`http://localhost:${port}/dev/mail.json`);

    const csrf = await signInByCode(page, 'keyholder@demo.example');
    const options = await api(page, 'auth/passkey/register_options', {}, { 'x-csrf-token': csrf });
    expect(options.status).toBe(200);
    expect(options.body.data).toMatchObject({ rp: { id: 'localhost' }, user: { name: 'keyholder@demo.example' } });
    const credential = await page.evaluate(async (json) => {
      const publicKey = PublicKeyCredential.parseCreationOptionsFromJSON(json as unknown as PublicKeyCredentialCreationOptionsJSON);
      return ((await navigator.credentials.create({ publicKey })) as PublicKeyCredential).toJSON();
    }, options.body.data);
    const registered = await api(page, 'auth/passkey/register', { response: credential, name: 'Laptop' }, { 'x-csrf-token': csrf });
    expect(registered.status, JSON.stringify(registered.body)).toBe(200);
    expect(openApiProblems('authPasskeyRegister', registered as ApiResponse<unknown>)).toEqual([]);
    expect(registered.body.data).toMatchObject({ passkey: { name: 'Laptop', last_used_at: null } });
    // The same response again: its challenge is used up.
    expect((await api(page, 'auth/passkey/register', { response: credential }, { 'x-csrf-token': csrf })).body.error?.code).toBe('CODE_EXPIRED');

    expect((await api(page, 'auth/signout', {}, { 'x-csrf-token': csrf })).status).toBe(200);
    expect((await api(page, 'auth/session')).status).toBe(401);

    const signinOptions = await api(page, 'auth/passkey/signin_options', {});
    expect(signinOptions.status).toBe(200);
    expect(openApiProblems('authPasskeySigninOptions', signinOptions as ApiResponse<unknown>)).toEqual([]);
    const { options: requestOptions, challenge_id } = signinOptions.body.data as { options: unknown; challenge_id: string };
    const assertion = await page.evaluate(async (json) => {
      const publicKey = PublicKeyCredential.parseRequestOptionsFromJSON(json as unknown as PublicKeyCredentialRequestOptionsJSON);
      return ((await navigator.credentials.get({ publicKey })) as PublicKeyCredential).toJSON();
    }, requestOptions);
    const signedIn = await api(page, 'auth/passkey/signin', { challenge_id, response: assertion });
    expect(signedIn.status, JSON.stringify(signedIn.body)).toBe(200);
    expect(openApiProblems('authPasskeySignin', signedIn as ApiResponse<unknown>)).toEqual([]);
    expect(signedIn.body.data).toMatchObject({ user: { email: 'keyholder@demo.example' }, workspaces: [{ role: 'member' }] });
    expect((await api(page, 'auth/passkey/signin', { challenge_id, response: assertion })).body.error?.code).toBe('CODE_EXPIRED');

    const session = await api(page, 'auth/session');
    expect(session.status).toBe(200);
    const listed = await api(page, 'auth/passkey/list');
    expect(openApiProblems('authPasskeyList', listed as ApiResponse<unknown>)).toEqual([]);
    const [passkey] = (listed.body.data as { passkeys: { id: string; last_used_at: string | null }[] }).passkeys;
    expect(passkey!.last_used_at).not.toBeNull();
    const newCsrf = (session.body.data as { csrf_token: string }).csrf_token;
    const deleted = await api(page, 'auth/passkey/delete', { passkey_id: passkey!.id }, { 'x-csrf-token': newCsrf });
    expect(deleted.status).toBe(200);
    expect(openApiProblems('authPasskeyDelete', deleted as ApiResponse<unknown>)).toEqual([]);
    expect((await api(page, 'auth/passkey/list')).body.data).toEqual({ passkeys: [] });
  });

  it('refuses a passkey answer for an unknown challenge, and registration without a session', async () => {
    const unknown = await call(ctx.platform, 'auth/passkey/signin', { body: { challenge_id: 'nope', response: { id: 'x' } } });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error?.code).toBe('CODE_EXPIRED');
    expect((await call(ctx.platform, 'auth/passkey/register_options', { body: {} })).status).toBe(401);
  });
});
