import { setTimeout as sleep } from 'node:timers/promises';
import type { Deps } from '../deps';
import { recall, remember } from './short-cache';

/**
 * How long a container may act on its last check of a credential (an API key, an MCP connection) without checking it
 * again. Whatever ends a credential waits this long (outlastVouches) before it answers, so once the caller is told it
 * ended, no instance acts on it any more: the check stays off the hot path, and revocation stays instant for whoever
 * revoked.
 */
export const VOUCH_MS = 1_000;
/** Room for the clocks of two containers measuring the same second a little differently. */
const MARGIN_MS = 100;

/** Whether a check made at `checkedAtMs` still vouches at `nowMs`. */
export const stillVouches = (checkedAtMs: number, nowMs: number): boolean => nowMs - checkedAtMs < VOUCH_MS;

/** Resolves once every check made before the call has stopped vouching, on every instance. */
export const outlastVouches = (): Promise<void> => sleep(VOUCH_MS + MARGIN_MS);

/**
 * The outcome of `check`, or this container's last outcome under `cacheKey` while that check still vouches (it
 * started under VOUCH_MS ago) and `stillValid` holds for it. A check that throws is not kept.
 */
export async function vouchedCheck<T>(deps: Deps, cacheKey: string, check: () => Promise<T>, stillValid: (outcome: T) => boolean = () => true): Promise<T> {
  const startedAtMs = deps.now().getTime();
  const recent = recall<{ outcome: T; startedAtMs: number }>(deps, cacheKey);
  if (recent && stillVouches(recent.startedAtMs, startedAtMs) && stillValid(recent.outcome)) return recent.outcome;
  const outcome = await check();
  remember(deps, cacheKey, { outcome, startedAtMs }, VOUCH_MS);
  return outcome;
}
