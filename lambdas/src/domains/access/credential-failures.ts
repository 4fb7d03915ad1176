import { DomainError } from '@service/shared';
import { cached, forget } from '../../infra/cache/short-cache';
import type { Deps } from '../../infra/deps';
import { getRateItems, updateRateItem } from './repository';

/**
 * Progressive delays for failed credentials, per source IP and per presented key prefix. Failures are counted on
 * small items of the rate-limits table with conditional updates (a 15-minute window that each failure extends),
 * so every Lambda instance sees the same count. Past the free failures, each further failure doubles the wait
 * (2 s, 4 s, … up to 15 min) during which every attempt, even with the right credential, is 429 RATE_LIMITED.
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

/** Seconds still to wait after `item`'s last failure; 0 when none. */
function waitSeconds(item: FailureItem | undefined, freeFailures: number, nowMs: number): number {
  if (!item || item.failures <= freeFailures) return 0;
  const delayMs = Math.min(2 ** (item.failures - freeFailures), MAX_DELAY_S) * 1000;
  return Math.max(0, Math.ceil((item.lastFailureMs + delayMs - nowMs) / 1000));
}

const rateLimited = (seconds: number) =>
  new DomainError('RATE_LIMITED', `Too many failed credentials; retry after ${seconds} s`, { retryAfterSeconds: seconds });

/**
 * How long a container trusts the failure counts it read for a source and prefix. Every failure is still counted in
 * the store and answered from the fresh count (so guesses are refused exactly as without it), and a failure counted
 * here drops the entry; the one thing it allows is a right credential, presented within this time to another
 * container, getting through at the start of a delay that container has not read yet.
 */
const FAILURE_READ_TTL_MS = 1_000;
const failureReadKey = (buckets: Bucket[]) => `authfail:${buckets.map((bucket) => bucket.id).join('|')}`;

/** The failure items of the buckets, read in one round trip (or recently, see FAILURE_READ_TTL_MS). */
const readFailures = (deps: Deps, buckets: Bucket[]): Promise<Map<string, FailureItem>> =>
  cached(deps, failureReadKey(buckets), FAILURE_READ_TTL_MS, () =>
    getRateItems<FailureItem>(
      deps,
      buckets.map((bucket) => bucket.id),
    ),
  );

/** The longest wait any of the buckets imposes now. */
async function readWait(deps: Deps, buckets: Bucket[], nowMs: number): Promise<number> {
  const items = await readFailures(deps, buckets);
  return Math.max(0, ...buckets.map((bucket) => waitSeconds(items.get(bucket.id), bucket.freeFailures, nowMs)));
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
 * Verifies a credential under the delays: 429 while a delay of its source or prefix runs (the credential is not
 * even checked), otherwise `verify`; a failure it reports (`isFailure`) is counted and becomes 429 once it starts a delay.
 */
export async function guardCredential<T>(deps: Deps, attempt: CredentialAttempt, verify: () => Promise<T>, isFailure: (error: unknown) => boolean): Promise<T> {
  const nowMs = deps.now().getTime();
  const buckets = bucketsOf(attempt);
  const [wait, verified] = await Promise.all([
    readWait(deps, buckets, nowMs),
    verify().then(
      (value) => ({ ok: true as const, value }),
      (error: unknown) => ({ ok: false as const, error }),
    ),
  ]);
  if (wait > 0) throw rateLimited(wait);
  if (verified.ok) return verified.value;
  if (!isFailure(verified.error)) throw verified.error;
  const counted = await Promise.all(buckets.map(async (bucket) => waitSeconds(await countFailure(deps, bucket, nowMs), bucket.freeFailures, nowMs)));
  forget(deps, failureReadKey(buckets));
  const startedWait = Math.max(...counted);
  throw startedWait > 0 ? rateLimited(startedWait) : verified.error;
}
