import * as z from 'zod';
import type { EndpointContract } from './contract';
import { email, isoDateTime } from './primitives';

/** Signing in (e-mail code, passkeys), the session, signing out; spread into ENDPOINTS. */

export const SIGN_IN_CODE_LENGTH = 6;
export const SESSION_COOKIE = 'svc_session';
/** The header the dashboard sends with every state-changing request made with a session (its value: auth/session's csrf_token). */
export const CSRF_HEADER = 'X-CSRF-Token';
/** The header naming the workspace a session request acts in. */
export const WORKSPACE_HEADER = 'X-Workspace-Id';

export const SessionUser = z.object({ id: z.string(), email: z.string(), display_name: z.string() }).meta({ id: 'SessionUser' });
export const WorkspaceMembership = z
  .object({ id: z.uuid(), name: z.string(), role: z.string().meta({ description: 'owner, admin, member or a company-defined role' }) })
  .meta({ id: 'WorkspaceMembership' });

const signedIn = z.object({ user: SessionUser, workspaces: z.array(WorkspaceMembership) });

const normalizedEmail = email.transform((value) => value.trim().toLowerCase());
export const EmailStartBody = z.object({ email: normalizedEmail }).strict();
export const EmailVerifyBody = z
  .object({
    email: normalizedEmail,
    code: z
      .string({ error: 'code is required' })
      .trim()
      .regex(/^\d{6}$/, { error: 'code is the 6 digits from the e-mail' }),
  })
  .strict();

/** A WebAuthn response as @simplewebauthn/browser returns it (JSON); checked by the server library. */
const webAuthnResponse = z
  .record(z.string(), z.unknown())
  .meta({ description: 'The credential JSON from the browser (startRegistration / startAuthentication)' });
const webAuthnOptions = z.record(z.string(), z.unknown()).meta({ description: 'Options JSON for @simplewebauthn/browser' });

export const Passkey = z.object({ id: z.string(), name: z.string(), created_at: isoDateTime, last_used_at: isoDateTime.nullable() }).meta({ id: 'Passkey' });
export const PasskeyRegisterBody = z.object({ response: webAuthnResponse, name: z.string().trim().min(1).max(80).optional() }).strict();
export const PasskeySigninBody = z
  .object({ challenge_id: z.string({ error: 'challenge_id is required' }).min(1).max(100), response: webAuthnResponse })
  .strict();
export const PasskeyIdBody = z.object({ passkey_id: z.string({ error: 'passkey_id is required' }).min(1).max(1024) }).strict();
export const EmptyBody = z.object({}).strict();
export const ProfileUpdateBody = z
  .object({
    display_name: z
      .string({ error: 'display_name is required' })
      .trim()
      .min(1, { error: 'display_name must not be empty' })
      .max(80, { error: 'display_name is at most 80 characters' })
      // A check, not a published pattern: OpenAPI patterns are ECMA without flags, and \p{Cc} needs the u flag.
      .refine((name) => !/\p{Cc}/u.test(name), { error: 'display_name must not contain control characters' }),
  })
  .strict();

const signedOut = z.object({ signed_out: z.literal(true) });

export const AUTH_ENDPOINTS = {
  authEmailStart: {
    path: 'auth/email/start',
    method: 'POST',
    summary: 'Send a 6-digit sign-in code by e-mail (always answers sent: true, whether or not the address has an account)',
    body: EmailStartBody,
    data: z.object({ sent: z.literal(true) }),
    status: 200,
    access: 'public',
  },
  authEmailVerify: {
    path: 'auth/email/verify',
    method: 'POST',
    summary: 'Sign in with the e-mailed code; sets the session cookie',
    body: EmailVerifyBody,
    data: signedIn,
    status: 200,
    access: 'public',
  },
  authPasskeyRegisterOptions: {
    path: 'auth/passkey/register_options',
    method: 'POST',
    summary: 'WebAuthn creation options for a new passkey of the signed-in person',
    data: webAuthnOptions,
    status: 200,
    access: 'session',
  },
  authPasskeyRegister: {
    path: 'auth/passkey/register',
    method: 'POST',
    summary: 'Register the passkey the browser created',
    body: PasskeyRegisterBody,
    data: z.object({ passkey: Passkey }),
    status: 200,
    access: 'session',
  },
  authPasskeySigninOptions: {
    path: 'auth/passkey/signin_options',
    method: 'POST',
    summary: 'WebAuthn request options for signing in with a passkey',
    body: EmptyBody,
    data: z.object({ options: webAuthnOptions, challenge_id: z.string() }),
    status: 200,
    access: 'public',
  },
  authPasskeySignin: {
    path: 'auth/passkey/signin',
    method: 'POST',
    summary: 'Sign in with a passkey; sets the session cookie',
    body: PasskeySigninBody,
    data: signedIn,
    status: 200,
    access: 'public',
  },
  authPasskeyList: {
    path: 'auth/passkey/list',
    method: 'GET',
    summary: "The signed-in person's passkeys",
    data: z.object({ passkeys: z.array(Passkey) }),
    status: 200,
    access: 'session',
  },
  authPasskeyDelete: {
    path: 'auth/passkey/delete',
    method: 'POST',
    summary: 'Remove one of your passkeys',
    body: PasskeyIdBody,
    data: z.object({ deleted: z.literal(true), passkey_id: z.string() }),
    status: 200,
    access: 'session',
  },
  authSession: {
    path: 'auth/session',
    method: 'GET',
    summary: 'The signed-in person, their workspaces and the CSRF token for state-changing requests',
    data: signedIn.extend({ csrf_token: z.string().meta({ description: 'Send it in X-CSRF-Token with every POST made with the session' }) }),
    status: 200,
    access: 'session',
  },
  authProfileUpdate: {
    path: 'auth/profile_update',
    method: 'POST',
    summary: 'Change your display name (what other members see)',
    body: ProfileUpdateBody,
    data: z.object({ user: SessionUser }),
    status: 200,
    access: 'session',
  },
  authSignout: { path: 'auth/signout', method: 'POST', summary: 'Sign out of this session', data: signedOut, status: 200, access: 'session' },
  authSignoutAll: {
    path: 'auth/signout_all',
    method: 'POST',
    summary: 'Sign out of every session of this person',
    data: signedOut,
    status: 200,
    access: 'session',
  },
} as const satisfies Record<string, EndpointContract>;
