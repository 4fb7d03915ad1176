import { DomainError } from '@service/shared';
import type { Deps } from '../../infra/deps';
import { updateRateItem } from './rate-limit-repository';

const WINDOW_MS = 60_000;

/**
 * Counts one hit in a fixed window (one minute unless `windowMs` says otherwise): one conditional update of the
 * window's own item, so concurrent Lambda instances share the count and no transaction is needed. Throws
 * RATE_LIMITED (with Retry-After) when full.
 */
export async function hitRateLimit(deps: Deps, bucket: string, limitPerMinute: number, windowMs = WINDOW_MS, what = 'messages'): Promise<void> {
  const nowMs = deps.now().getTime();
  const window = Math.floor(nowMs / windowMs);
  const windowEndsMs = (window + 1) * windowMs;
  const counted = await updateRateItem(
    deps,
    `${bucket}#${window}`,
    'ADD hits :one SET expiresAtEpoch = :expires',
    'attribute_not_exists(hits) OR hits < :limit',
    {
      ':one': 1,
      ':limit': limitPerMinute,
      ':expires': Math.ceil(windowEndsMs / 1000) + 60,
    },
  );
  if (!counted) {
    const retryAfter = Math.max(1, Math.ceil((windowEndsMs - nowMs) / 1000));
    throw new DomainError('RATE_LIMITED', `Too many ${what}; retry after ${retryAfter} s`, { retryAfterSeconds: retryAfter });
  }
}
