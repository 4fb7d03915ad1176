import { DomainError } from '@service/shared';
import { lruPerStore, recall, remember } from '../../infra/cache/short-cache';
import { stillVouches } from '../../infra/cache/vouching';
import type { Deps } from '../../infra/deps';
import { storedHash } from '../../infra/secrets/stored-hash';
import { updateApiKeyItem, type StoredApiKey } from './api-key-repository';

/**
 * Admitting a request made with an API key: the key checked live and the request counted against the key's
 * per-minute limit, in one conditional update of the key's own item (the window stored with the key, so every
 * instance shares it). A container then lets that check vouch for the key for VOUCH_MS (a second), counting the
 * requests it admits on it and carrying that tally into the key's next check, so a busy key costs one store write a
 * second per container instead of one per request (and the command path one store wait instead of two). Revoking a key
 * outlasts every such vouch before it answers (api-keys.ts), so the next call after a revocation fails everywhere.
 */
export const API_KEY_PATTERN = /^sk_live_[0-9A-Za-z]{32,128}$/;

export interface RateLimitState {
  limit: number;
  remaining: number;
  /** Seconds until the window resets. */
  resetSeconds: number;
  windowSeconds: number;
  /** This request went past the limit. */
  exceeded: boolean;
}

/** How long a container remembers a key's workspace (a key never changes workspace), for reads started ahead. */
const KEY_CHECK_KEPT_MS = 10 * 60_000;
const RATE_WINDOW_MS = 60_000;
const windowOf = (nowMs: number) => Math.floor(nowMs / RATE_WINDOW_MS);
/** The last tenth of a limit is never admitted on a vouching check: near its limit, every request is counted first. */
const checkedShare = (limit: number) => Math.ceil(limit / 10);
/**
 * A check vouches for at most a hundredth of the limit before the key is checked again, so what one instance has
 * admitted and not yet counted stays that small: across N instances the limit can be passed by N hundredths at most
 * (none at all on one instance). Under a limit of 100 a minute, every request is checked.
 */
const vouchesAtMost = (limit: number) => Math.floor(limit / 100);

/** A key's last check in a container: its item, the shared window's count it returned, and the tally admitted on it since. */
interface KeyCheck {
  key: StoredApiKey;
  checkedAtMs: number;
  window: number;
  count: number;
  admittedSince: number;
}

/** Kept in place of a key's check once this instance revoked it: a check that was under way then records nothing. */
const REVOKED_HERE = 'revoked here';
const checkCacheKey = (keyHash: string) => `api-key-check:${keyHash}`;

function keptCheck(deps: Deps, keyHash: string): KeyCheck | undefined {
  const kept = recall<KeyCheck | typeof REVOKED_HERE>(deps, checkCacheKey(keyHash));
  return kept === REVOKED_HERE ? undefined : kept;
}

/** This instance revoked the key: no check of it vouches here any more, even one under way (others stop within VOUCH_MS). */
export function markRevokedHere(deps: Deps, keyHash: string): void {
  remember(deps, checkCacheKey(keyHash), REVOKED_HERE, KEY_CHECK_KEPT_MS);
}

/** The workspace a key authenticated for before, if this container saw it: it lets reads start while the key is checked. */
export const knownWorkspaceOfKey = (deps: Deps, secret: string): string | undefined =>
  API_KEY_PATTERN.test(secret) ? keptCheck(deps, storedHash(secret))?.key.workspaceId : undefined;

function rateState(limit: number, count: number, window: number, nowMs: number): RateLimitState {
  return {
    limit,
    remaining: Math.max(0, limit - count),
    resetSeconds: Math.max(1, Math.ceil(((window + 1) * RATE_WINDOW_MS - nowMs) / 1000)),
    windowSeconds: RATE_WINDOW_MS / 1000,
    exceeded: count > limit,
  };
}

/**
 * A request on a check that still vouches (VOUCH_MS) in this minute, while its tally is under vouchesAtMost and
 * leaves the checked share of the limit free.
 */
function admitOnRecentCheck(deps: Deps, secret: string, limitPerMinute: number): { key: StoredApiKey; rate: RateLimitState } | undefined {
  if (!API_KEY_PATTERN.test(secret)) return undefined;
  const check = keptCheck(deps, storedHash(secret));
  const nowMs = deps.now().getTime();
  if (!check || !stillVouches(check.checkedAtMs, nowMs) || check.window !== windowOf(nowMs) || check.admittedSince >= vouchesAtMost(limitPerMinute))
    return undefined;
  const count = check.count + check.admittedSince + 1;
  if (count > limitPerMinute - checkedShare(limitPerMinute)) return undefined;
  check.admittedSince += 1;
  return { key: check.key, rate: rateState(limitPerMinute, count, check.window, nowMs) };
}

/**
 * Checks the key and counts the request, with the tally admitted on this container's last check in the same minute
 * (taken over by this check; given back if it fails). Unknown or revoked keys are API_KEY_INVALID; a
 * request over the limit is `rate.exceeded`.
 */
async function checkAndCount(deps: Deps, keyHash: string, limitPerMinute: number): Promise<{ key: StoredApiKey; rate: RateLimitState }> {
  const nowMs = deps.now().getTime();
  const window = windowOf(nowMs);
  const previous = keptCheck(deps, keyHash);
  const carried = previous?.window === window ? previous.admittedSince : 0;
  if (previous) previous.admittedSince -= carried;
  try {
    const { rlCount, rlWindow: _window, ...key } = await countRequests(deps, keyHash, window, nowMs, 1 + carried);
    const count = rlCount ?? 1;
    recordCheck(deps, key, window, count, nowMs);
    return { key, rate: rateState(limitPerMinute, count, window, nowMs) };
  } catch (error) {
    if (previous) previous.admittedSince += carried;
    throw error;
  }
}

/** Records a check's outcome, in place when one is kept (the requests admitted on it meanwhile keep their tally). */
function recordCheck(deps: Deps, key: StoredApiKey, window: number, count: number, nowMs: number): void {
  const kept = recall<KeyCheck | typeof REVOKED_HERE>(deps, checkCacheKey(key.keyHash));
  if (kept === REVOKED_HERE) return;
  if (!kept)
    return remember(deps, checkCacheKey(key.keyHash), { key, checkedAtMs: nowMs, window, count, admittedSince: 0 } satisfies KeyCheck, KEY_CHECK_KEPT_MS);
  const sameWindow = kept.window === window;
  Object.assign(kept, {
    key,
    window,
    checkedAtMs: Math.max(kept.checkedAtMs, nowMs),
    count: sameWindow ? Math.max(kept.count, count) : count,
    admittedSince: sameWindow ? kept.admittedSince : 0,
  });
}

/**
 * Keys this container found unknown or revoked, refused again without the store: a key never becomes valid after
 * that (its secret is random and shown only once it is stored). A cache of its own, so that a flood of bad keys
 * pushes out only other bad keys, never what valid requests rely on.
 */
const knownInvalidKeys = lruPerStore<true>(10_000);

const invalidKey = () => new DomainError('API_KEY_INVALID', 'The API key is not valid or was revoked');

/**
 * Admits a request made with an API key: on this container's recent check of it when one vouches (no store wait),
 * otherwise after checking it and counting it with the tally admitted since the last check. A key this container
 * already found invalid is refused at once.
 */
export async function admitApiKey(deps: Deps, secret: string, limitPerMinute: number): Promise<{ key: StoredApiKey; rate: RateLimitState }> {
  const admitted = admitOnRecentCheck(deps, secret, limitPerMinute);
  if (admitted) return admitted;
  if (!API_KEY_PATTERN.test(secret)) throw new DomainError('API_KEY_INVALID', 'The API key is not valid');
  const keyHash = storedHash(secret);
  if (knownInvalidKeys(deps).has(keyHash)) throw invalidKey();
  try {
    return await checkAndCount(deps, keyHash, limitPerMinute);
  } catch (error) {
    if (error instanceof DomainError && error.code === 'API_KEY_INVALID') knownInvalidKeys(deps).set(keyHash, true);
    throw error;
  }
}

type MeteredKey = StoredApiKey & { rlWindow?: number; rlCount?: number };
const LIVE_KEY = 'attribute_exists(keyHash) AND attribute_not_exists(revokedAt)';

const meteredUpdate = (deps: Deps, keyHash: string, update: string, condition: string, values: Record<string, unknown>) =>
  updateApiKeyItem<MeteredKey>(deps, keyHash, update, `${LIVE_KEY} AND ${condition}`, values);

/**
 * Counts `requests` in the key's window. The common case: the key is live and already counting in this window (a
 * later stored window means another instance's clock crossed the minute first; the requests count there rather than
 * failing a valid key); else the first of a window (or of the key); both failing means the key is not live, or a
 * concurrent request opened the window between them.
 */
async function countRequests(deps: Deps, keyHash: string, window: number, nowMs: number, requests: number): Promise<MeteredKey> {
  const values = { ':n': requests, ':w': window, ':now': new Date(nowMs).toISOString() };
  const countInWindow = () => meteredUpdate(deps, keyHash, 'SET rlCount = rlCount + :n, lastUsedAt = :now', 'rlWindow >= :w', values);
  const startWindow = () =>
    meteredUpdate(deps, keyHash, 'SET rlWindow = :w, rlCount = :n, lastUsedAt = :now', '(attribute_not_exists(rlWindow) OR rlWindow < :w)', values);
  const counted = (await countInWindow()) ?? (await startWindow()) ?? (await countInWindow());
  if (!counted) throw invalidKey();
  return counted;
}
