import { DomainError, newKeyId, randomBase62 } from '@service/shared';
import { LRUCache } from 'lru-cache';
import { storedHash } from '../../infra/secrets/stored-hash';
import type { Deps } from '../../infra/deps';
import { getApiKeyItem, putNewApiKey, queryApiKeys, updateApiKeyItem, type StoredApiKey } from './repository';

export type { StoredApiKey } from './repository';

export const API_KEY_PREFIX = 'sk_live_';
const API_KEY_PATTERN = /^sk_live_[0-9A-Za-z]{32,128}$/;

/**
 * Key hash -> its workspace, as seen at the last successful authentication. A key never changes workspace, so this
 * only lets a request start workspace reads (the token gate) while its key is still being checked; it authorises
 * nothing: revocation and the rate limit are always read fresh.
 */
const workspaceOfKey = new LRUCache<string, string>({ max: 10_000 });

/** The workspace a key authenticated for before, if this container saw it. */
export const knownWorkspaceOfKey = (secret: string): string | undefined =>
  API_KEY_PATTERN.test(secret) ? workspaceOfKey.get(storedHash(secret)) : undefined;
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

export interface RateLimitState {
  limit: number;
  remaining: number;
  /** Seconds until the window resets. */
  resetSeconds: number;
  windowSeconds: number;
  /** This request went past the limit. */
  exceeded: boolean;
}

const RATE_WINDOW_MS = 60_000;

/**
 * Authenticates a presented secret and counts the request against its per-minute quota in one conditional update
 * of the key's own item (fixed window stored with the key, so every Lambda instance shares it and a revoked key
 * fails at once). Unknown, malformed or revoked keys are API_KEY_INVALID; a request over quota is `rate.exceeded`.
 */
export async function authenticateAndMeter(deps: Deps, secret: string, limitPerMinute: number): Promise<{ key: StoredApiKey; rate: RateLimitState }> {
  if (!API_KEY_PATTERN.test(secret)) throw new DomainError('API_KEY_INVALID', 'The API key is not valid');
  const keyHash = storedHash(secret);
  const nowMs = deps.now().getTime();
  const window = Math.floor(nowMs / RATE_WINDOW_MS);
  const key = (await countInWindow(deps, keyHash, window, nowMs)) ?? (await startWindow(deps, keyHash, window, nowMs)) ?? (await countAfterRace(deps, keyHash, window, nowMs));
  const count = key.rlCount ?? 1;
  const rate: RateLimitState = {
    limit: limitPerMinute,
    remaining: Math.max(0, limitPerMinute - count),
    resetSeconds: Math.max(1, Math.ceil(((window + 1) * RATE_WINDOW_MS - nowMs) / 1000)),
    windowSeconds: RATE_WINDOW_MS / 1000,
    exceeded: count > limitPerMinute,
  };
  workspaceOfKey.set(keyHash, key.workspaceId);
  return { key, rate };
}

type MeteredKey = StoredApiKey & { rlWindow?: number; rlCount?: number };
const LIVE_KEY = 'attribute_exists(keyHash) AND attribute_not_exists(revokedAt)';

const meteredUpdate = (deps: Deps, keyHash: string, update: string, condition: string, values: Record<string, unknown>) =>
  updateApiKeyItem<MeteredKey>(deps, keyHash, update, `${LIVE_KEY} AND ${condition}`, values);

/**
 * The common case: the key is live and already counting in this window. A later stored window means another
 * instance's clock crossed the minute first; the request counts there rather than failing a valid key.
 */
const countInWindow = (deps: Deps, keyHash: string, window: number, nowMs: number) =>
  meteredUpdate(deps, keyHash, 'SET rlCount = rlCount + :one, lastUsedAt = :now', 'rlWindow >= :w', {
    ':one': 1,
    ':w': window,
    ':now': new Date(nowMs).toISOString(),
  });

/** First request of a window (or of the key). */
const startWindow = (deps: Deps, keyHash: string, window: number, nowMs: number) =>
  meteredUpdate(deps, keyHash, 'SET rlWindow = :w, rlCount = :one, lastUsedAt = :now', '(attribute_not_exists(rlWindow) OR rlWindow < :w)', {
    ':one': 1,
    ':w': window,
    ':now': new Date(nowMs).toISOString(),
  });

/** Both updates failed: either the key is not live, or a concurrent request opened the window between them. */
async function countAfterRace(deps: Deps, keyHash: string, window: number, nowMs: number): Promise<MeteredKey> {
  const counted = await countInWindow(deps, keyHash, window, nowMs);
  if (counted) return counted;
  throw new DomainError('API_KEY_INVALID', 'The API key is not valid or was revoked');
}

/** Whether a key with this secret is stored (revoked or not). */
export const apiKeyExists = async (deps: Deps, secret: string): Promise<boolean> => (await getApiKeyItem(deps, storedHash(secret))) !== undefined;

export const listApiKeys = (deps: Deps, workspaceId: string): Promise<StoredApiKey[]> => queryApiKeys(deps, workspaceId);

export async function revokeApiKey(deps: Deps, workspaceId: string, keyId: string): Promise<StoredApiKey> {
  const key = (await listApiKeys(deps, workspaceId)).find((candidate) => candidate.id === keyId);
  if (!key) throw new DomainError('NOT_FOUND', `No API key ${keyId} in this workspace`, { field: 'key_id' });
  if (key.revokedAt) return key;
  const revokedAt = deps.now().toISOString();
  await updateApiKeyItem(deps, key.keyHash, 'SET revokedAt = :at', 'workspaceId = :w AND attribute_not_exists(revokedAt)', { ':at': revokedAt, ':w': workspaceId });
  return { ...key, revokedAt: key.revokedAt ?? revokedAt };
}
