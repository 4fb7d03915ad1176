import {
  deletePasskey,
  listPasskeys,
  registerPasskey,
  registrationOptions,
  relyingPartyOf,
  signInOptions,
  signInWithPasskey,
  type StoredPasskey,
} from '../../../domains/people/passkeys';
import { clientOf, sessionOf, signedIn, whereFrom } from './auth';
import { recordPersonEvent } from '../../../domains/audit/person-events';
import type { EndpointHandlers } from './types';

export type PasskeyEndpoint =
  'authPasskeyRegisterOptions' | 'authPasskeyRegister' | 'authPasskeySigninOptions' | 'authPasskeySignin' | 'authPasskeyList' | 'authPasskeyDelete';

const passkeyResponse = (passkey: StoredPasskey) => ({
  id: passkey.credentialId,
  name: passkey.name,
  created_at: passkey.createdAt,
  last_used_at: passkey.lastUsedAt ?? null,
});

/** Passkeys: the relying party is the host the browser used (localhost locally), or DASHBOARD_ORIGIN's in AWS. */
export const passkeyEndpoints: EndpointHandlers<PasskeyEndpoint> = {
  authPasskeyRegisterOptions: async ({ deps, session, client }) => ({
    data: (await registrationOptions(deps, sessionOf(session), relyingPartyOf(clientOf(client).origin))) as unknown as Record<string, unknown>,
  }),

  authPasskeyRegister: async ({ deps, session, client, body }) => {
    const passkey = await registerPasskey(deps, sessionOf(session), relyingPartyOf(clientOf(client).origin), body.response, body.name);
    const { userId, email } = sessionOf(session);
    await recordPersonEvent(deps, {
      user: { id: userId, email },
      email,
      action: 'auth.passkey_added',
      after: passkeyResponse(passkey),
      ...whereFrom(clientOf(client)),
    });
    return { data: { passkey: passkeyResponse(passkey) }, msg: 'Passkey added; sign in with it next time' };
  },

  authPasskeySigninOptions: async ({ deps, client }) => {
    const { options, challengeId } = await signInOptions(deps, relyingPartyOf(clientOf(client).origin));
    return { data: { options: options as unknown as Record<string, unknown>, challenge_id: challengeId } };
  },

  authPasskeySignin: async ({ deps, client, body }) => {
    const user = await signInWithPasskey(deps, relyingPartyOf(clientOf(client).origin), body.challenge_id, body.response);
    return signedIn(deps, user, clientOf(client), 'passkey');
  },

  authPasskeyList: async ({ deps, session }) => ({ data: { passkeys: (await listPasskeys(deps, sessionOf(session).userId)).map(passkeyResponse) } }),

  authPasskeyDelete: async ({ deps, session, body, client }) => {
    await deletePasskey(deps, sessionOf(session).userId, body.passkey_id);
    const { userId, email } = sessionOf(session);
    await recordPersonEvent(deps, {
      user: { id: userId, email },
      email,
      action: 'auth.passkey_removed',
      after: { id: body.passkey_id },
      ...whereFrom(clientOf(client)),
    });
    return { data: { deleted: true as const, passkey_id: body.passkey_id }, msg: 'Passkey removed' };
  },
};
