import type { Deps } from '../../infra/deps';
import { putNewItem, readItem, setOnce } from '../../infra/store/dynamo';
import type { ApprovedConnection } from './connection-repository';

/** Every store call of the `oauthTokens` table: OAuth secrets (authorization codes, refresh tokens) by hash. */

export type StoredSecret =
  | {
      tokenHash: string;
      kind: 'code';
      expiresAt: string;
      expiresAtEpoch: number;
      usedAt?: string;
      clientId: string;
      redirectUri: string;
      codeChallenge: string;
      approved: ApprovedConnection;
    }
  | {
      tokenHash: string;
      kind: 'refresh';
      expiresAt: string;
      expiresAtEpoch: number;
      usedAt?: string;
      clientId: string;
      connectionId: string;
      workspaceId: string;
      userId: string;
      scopes: string[];
    };

export async function putSecret(deps: Deps, secret: StoredSecret): Promise<void> {
  await putNewItem(deps.store, deps.store.table('oauthTokens'), secret, 'tokenHash');
}

export async function findSecret(deps: Deps, tokenHash: string): Promise<StoredSecret | undefined> {
  return readItem<StoredSecret>(deps.store, deps.store.table('oauthTokens'), { tokenHash });
}

/** Marks a single-use secret (code, refresh token) used: false when it already was (a replay). */
export async function useSecretOnce(deps: Deps, tokenHash: string, at: string): Promise<boolean> {
  return setOnce(deps.store, deps.store.table('oauthTokens'), { tokenHash }, 'usedAt', at);
}
