import { setTimeout as sleep } from 'node:timers/promises';

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
