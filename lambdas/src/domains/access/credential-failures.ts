import { DomainError } from '@service/shared';
import { cached, forget, recall, remember } from '../../infra/cache/short-cache';
import type { Deps } from '../../infra/deps';
import { getRateItems, updateRateItem } from './rate-limit-repository';

/**
 * Progressive delays for failed credentials, per source IP and per presented key prefix. Failures are counted on
 * small items of the rate-limits table with conditional updates (a 15-minute window that each failure extends),
 * so every Lambda instance sees the same count. Past the free failures, each further failure doubles the wait
 * (2 s, 4 s, … up to 15 min) during which every wrong credential of that source or prefix is 429 RATE_LIMITED,
 * answered from what this container knows of the delay without another store call. A credential is checked before
 * any delay is looked at, and a right one is never refused here: our keys cannot be guessed, so the delays are there
 * to keep floods of bad keys off the store, and one stale key behind a company's NAT must not lock out its good ones.
 */
export type CredentialKind = 'api-key' | 'master-key';

export interface CredentialAttempt {
  kind: CredentialKind;
  sourceIp: string;
  presented: string;
}

interface Bucket {
  id: string;
  freeFailures: number;
}

interface FailureItem {
  failures: number;
  lastFailureMs: number;
}

const WINDOW_MS = 15 * 60_000;
const MAX_DELAY_S = 15 * 60;
/** The part of a key a guesser keeps constant: the API key's display prefix (`sk_live_` + 4), a short master prefix. */
const PREFIX_LENGTH: Record<CredentialKind, number> = { 'api-key': 12, 'master-key': 6 };
export const FREE_FAILURES = { perSourceIp: 10, perKeyPrefix: 5 } as const;

const bucketsOf = (attempt: CredentialAttempt): Bucket[] => [
  { id: `authfail#${attempt.kind}#ip#${attempt.sourceIp.slice(0, 64)}`, freeFailures: FREE_FAILURES.perSourceIp },
  { id: `authfail#${attempt.kind}#prefix#${attempt.presented.slice(0, PREFIX_LENGTH[attempt.kind])}`, freeFailures: FREE_FAILURES.perKeyPrefix },
];

/** When the delay `item` imposes ends (ms), or undefined when it imposes none. */
function delayEndMs(item: FailureItem | undefined, freeFailures: number): number | undefined {
  if (!item || item.failures <= freeFailures) return undefined;
  return item.lastFailureMs + Math.min(2 ** (item.failures - freeFailures), MAX_DELAY_S) * 1000;
}

const secondsUntil = (endMs: number | undefined, nowMs: number) => (endMs === undefined ? 0 : Math.max(0, Math.ceil((endMs - nowMs) / 1000)));

const rateLimited = (seconds: number) =>
  new DomainError('RATE_LIMITED', `Too many failed credentials; retry after ${seconds} s`, { retryAfterSeconds: seconds });

/**
 * How long a container trusts the failure counts it read for a source and prefix. Every failure outside a known delay
 * is still counted in the store and answered from the fresh count, so this changes no answer; a failure counted here
 * drops the entry.
 */
const FAILURE_READ_TTL_MS = 1_000;
const failureReadKey = (buckets: Bucket[]) => `authfail:${buckets.map((bucket) => bucket.id).join('|')}`;
const delayKey = (bucket: Bucket) => `authdelay:${bucket.id}`;

/** The failure items of the buckets, read in one round trip (or recently, see FAILURE_READ_TTL_MS). */
const readFailures = (deps: Deps, buckets: Bucket[]): Promise<Map<string, FailureItem>> =>
  cached(deps, failureReadKey(buckets), FAILURE_READ_TTL_MS, () =>
    getRateItems<FailureItem>(
      deps,
      buckets.map((bucket) => bucket.id),
    ),
  );

/**
 * Seconds the bucket's delay still runs, as `item` says; a running delay is kept in this container until it ends
 * (a delay only ever grows: other containers' failures extend it), so its wrong credentials are refused from memory.
 */
function noteDelay(deps: Deps, bucket: Bucket, item: FailureItem | undefined, nowMs: number): number {
  const endMs = delayEndMs(item, bucket.freeFailures);
  const seconds = secondsUntil(endMs, nowMs);
  if (seconds > 0) remember(deps, delayKey(bucket), endMs, endMs! - nowMs);
  return seconds;
}

/** The longest wait any of the buckets imposes now: from a delay this container knows of, else from the store. */
async function readWait(deps: Deps, buckets: Bucket[], nowMs: number): Promise<number> {
  const known = Math.max(0, ...buckets.map((bucket) => secondsUntil(recall<number>(deps, delayKey(bucket)), nowMs)));
  if (known > 0) return known;
  const items = await readFailures(deps, buckets);
  return Math.max(0, ...buckets.map((bucket) => noteDelay(deps, bucket, items.get(bucket.id), nowMs)));
}

async function countFailure(deps: Deps, bucket: Bucket, nowMs: number): Promise<FailureItem> {
  const update = (expression: string, condition: string) =>
    updateRateItem<FailureItem>(deps, bucket.id, `${expression}, lastFailureMs = :now, expiresAtEpoch = :expires`, condition, {
      ':one': 1,
      ':now': nowMs,
      ':windowStart': nowMs - WINDOW_MS,
      ':expires': Math.ceil((nowMs + WINDOW_MS) / 1000),
    });
  const within = () => update('SET failures = failures + :one', 'lastFailureMs > :windowStart');
  const restart = () => update('SET failures = :one', 'attribute_not_exists(lastFailureMs) OR lastFailureMs <= :windowStart');
  const counted = (await within()) ?? (await restart()) ?? (await within());
  return counted ?? { failures: 1, lastFailureMs: nowMs };
}

/**
 * Verifies a credential, then puts a failure it reports (`isFailure`) under the delays: 429 while a delay of its source
 * or prefix runs; otherwise counted, and 429 once it starts a delay. A verified credential passes whatever delay runs.
 */
export async function guardCredential<T>(deps: Deps, attempt: CredentialAttempt, verify: () => Promise<T>, isFailure: (error: unknown) => boolean): Promise<T> {
  try {
    return await verify();
  } catch (error) {
    if (!isFailure(error)) throw error;
    const nowMs = deps.now().getTime();
    const buckets = bucketsOf(attempt);
    const wait = await readWait(deps, buckets, nowMs);
    if (wait > 0) throw rateLimited(wait);
    const counted = await Promise.all(buckets.map(async (bucket) => noteDelay(deps, bucket, await countFailure(deps, bucket, nowMs), nowMs)));
    forget(deps, failureReadKey(buckets));
    const startedWait = Math.max(...counted);
    throw startedWait > 0 ? rateLimited(startedWait) : error;
  }
}
