import { DomainError, newKeyId, randomBase62 } from '@service/shared';
import { outlastVouches } from '../../infra/cache/vouching';
import { storedHash } from '../../infra/secrets/stored-hash';
import type { Deps } from '../../infra/deps';
import { API_KEY_PATTERN, markRevokedHere } from './key-admission';
import { getApiKeyItem, putNewApiKey, queryApiKeys, updateApiKeyItem, type StoredApiKey } from './api-key-repository';

export type { StoredApiKey } from './api-key-repository';

export const API_KEY_PREFIX = 'sk_live_';

export const generateApiKeySecret = (): string => `${API_KEY_PREFIX}${randomBase62(40)}`;

export function toApiKeyResponse(key: StoredApiKey) {
  return {
    id: key.id,
    name: key.name,
    prefix: key.prefix,
    last4: key.last4,
    created_at: key.createdAt,
    last_used_at: key.lastUsedAt ?? null,
    revoked_at: key.revokedAt ?? null,
  };
}

/** Stores a key by its hash only; the secret is returned to be shown once. */
export async function createApiKey(deps: Deps, workspaceId: string, name: string, options: { secret?: string; id?: string; createdAt?: Date } = {}) {
  const secret = options.secret ?? generateApiKeySecret();
  if (!API_KEY_PATTERN.test(secret)) throw new Error(`API keys must be ${API_KEY_PREFIX} followed by at least 32 base62 characters`);
  const key: StoredApiKey = {
    keyHash: storedHash(secret),
    id: options.id ?? newKeyId(),
    workspaceId,
    name,
    prefix: secret.slice(0, API_KEY_PREFIX.length + 4),
    last4: secret.slice(-4),
    createdAt: (options.createdAt ?? deps.now()).toISOString(),
  };
  await putNewApiKey(deps, key);
  return { key, secret };
}

/** Whether a key with this secret is stored (revoked or not). */
export const apiKeyExists = async (deps: Deps, secret: string): Promise<boolean> => (await getApiKeyItem(deps, storedHash(secret))) !== undefined;

export const listApiKeys = (deps: Deps, workspaceId: string): Promise<StoredApiKey[]> => queryApiKeys(deps, workspaceId);

export async function revokeApiKey(deps: Deps, workspaceId: string, keyId: string): Promise<StoredApiKey> {
  const key = (await listApiKeys(deps, workspaceId)).find((candidate) => candidate.id === keyId);
  if (!key) throw new DomainError('NOT_FOUND', `No API key ${keyId} in this workspace`, { field: 'key_id' });
  const revokedAt = key.revokedAt ?? deps.now().toISOString();
  if (!key.revokedAt)
    await updateApiKeyItem(deps, key.keyHash, 'SET revokedAt = :at', 'workspaceId = :w AND attribute_not_exists(revokedAt)', {
      ':at': revokedAt,
      ':w': workspaceId,
    });
  // This instance stops admitting the key at once; the answer waits until no other instance's check vouches for it.
  markRevokedHere(deps, key.keyHash);
  await outlastVouches();
  return { ...key, revokedAt: key.revokedAt ?? revokedAt };
}
