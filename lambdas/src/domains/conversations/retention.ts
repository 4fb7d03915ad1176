import type { Deps } from '../../infra/deps';
import { getWorkspaceCached } from '../access/workspace-cache';

const DAY_MS = 24 * 3600 * 1000;

/**
 * A workspace's retention: conversations are erased `days` after their last activity by the retention sweeper
 * (domains/visitors/retention-sweeper.ts), which erases what derives from them too. Their items also carry DynamoDB's
 * TTL attribute, a day later, as the backstop of a sweeper that fell behind (dynalite has no TTL: locally the sweeper alone).
 */

/** When a conversation last active at `lastActivity` is due for erasure; undefined while the workspace keeps conversations. */
export const erasureDue = (days: number | undefined, lastActivity: Date): Date | undefined =>
  days === undefined ? undefined : new Date(lastActivity.getTime() + days * DAY_MS);

/** The TTL attribute (epoch seconds) for a conversation last active at `lastActivity`; undefined: none (kept). */
export const expiryFor = (days: number | undefined, lastActivity: Date): number | undefined => {
  const due = erasureDue(days, lastActivity);
  return due && Math.floor((due.getTime() + DAY_MS) / 1000);
};

/**
 * The TTL attribute for an item of a conversation of the workspace written at `now`. Read through the per-container
 * workspace cache: a changed setting reaches new writes within its lifetime, and the sweeper stamps the rest.
 */
export async function conversationExpiry(deps: Deps, workspaceId: string, now: Date): Promise<number | undefined> {
  return expiryFor((await getWorkspaceCached(deps, workspaceId))?.retentionDays, now);
}
