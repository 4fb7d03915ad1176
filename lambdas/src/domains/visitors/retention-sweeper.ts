import type { Deps } from '../../infra/deps';
import { logger } from '../../infra/logger';
import { scanWorkspacesWithRetention } from '../access/workspaces';
import { listAgents } from '../agents/agents';
import { agentRefKey, getConversationMetas, queryAgentConversationRefs } from '../conversations/agent-conversation-repository';
import { userKey, type ConversationMetaItem } from '../conversations/repository';
import { erasureDue, expiryFor } from '../conversations/retention';
import { queryConversationItems, stampExpiry, visitorPointerKey } from '../conversations/visitor-data-repository';
import { eraseConversations, finishErasure } from './erase';
import { recordRetentionErasure } from '../audit/platform-events';
import { queryUnfinishedErasures, type PlannedConversation } from './erasure-repository';
import { isMessage, MAX_VISITOR_CONVERSATIONS, plannedFrom } from './visitor-data';

/**
 * The retention sweeper (an EventBridge schedule in AWS, a timer of the local platform): finishes erasures a crash
 * left unfinished, then, in each workspace that set a retention, erases the conversations whose last activity is older
 * than it (one audit record per workspace and round, at most MAX_VISITOR_CONVERSATIONS; the rest next round), and
 * stamps the others' TTL attribute anew where the setting changed since it was written.
 */
export interface RetentionReport {
  resumed: number;
  erased: number;
  restamped: number;
}

/** An erasure unfinished after this long was left by a crash (a live one finishes within a request). */
const ABANDONED_AFTER_MS = 60_000;
const PAGE = 100;

export async function sweepRetention(deps: Deps): Promise<RetentionReport> {
  const now = deps.now();
  const report: RetentionReport = { resumed: 0, erased: 0, restamped: 0 };
  for (const erasure of await queryUnfinishedErasures(deps, new Date(now.getTime() - ABANDONED_AFTER_MS).toISOString(), PAGE)) {
    await recordRetentionErasure(deps, await finishErasure(deps, erasure));
    report.resumed += 1;
  }
  for (const workspace of await scanWorkspacesWithRetention(deps)) {
    const expired: PlannedConversation[] = [];
    for (const agent of await listAgents(deps, workspace.id)) {
      for await (const meta of agentConversations(deps, agent.id)) {
        if (meta.erasedAt) continue;
        const due = erasureDue(workspace.retentionDays, new Date(meta.updatedAt));
        if (due && due <= now) {
          if (expired.length < MAX_VISITOR_CONVERSATIONS) expired.push(plannedFrom(meta));
        } else if (meta.expiresAtEpoch !== expiryFor(workspace.retentionDays, new Date(meta.updatedAt))) {
          await restamp(deps, workspace.id, meta, expiryFor(workspace.retentionDays, new Date(meta.updatedAt)));
          report.restamped += 1;
        }
      }
    }
    if (expired.length > 0) {
      await recordRetentionErasure(deps, await eraseConversations(deps, workspace.id, expired));
      report.erased += expired.length;
    }
  }
  if (report.resumed + report.erased > 0) logger.info('retention sweeper erased conversations', { ...report });
  return report;
}

/** Every conversation `meta` item of the agent, page by page. */
async function* agentConversations(deps: Deps, agentId: string): AsyncGenerator<ConversationMetaItem> {
  let cursor: string | undefined;
  do {
    const { refs, next } = await queryAgentConversationRefs(deps, agentId, PAGE, cursor);
    if (refs.length > 0) yield* (await getConversationMetas(deps, refs.map(({ ref }) => ref))).values();
    cursor = next ?? undefined;
  } while (cursor);
}

/** Stamps every item of the conversation, its list entry and its pointers with the expiry of the current setting. */
async function restamp(deps: Deps, workspaceId: string, meta: ConversationMetaItem, expires: number | undefined): Promise<void> {
  const planned = plannedFrom(meta);
  const pointers = [...planned.visitorIds.map((visitorId) => ({ visitorId })), ...(planned.userId ? [{ userId: planned.userId }] : [])];
  const items = await queryConversationItems(deps, meta.conversationId);
  await Promise.all([
    // Pending actions keep their own short expiry.
    ...items.filter(isMessage).map((item) => stampExpiry(deps, item, expires)),
    stampExpiry(deps, agentRefKey(meta.agentId, meta.createdAt, meta.conversationId), expires),
    ...pointers.map((who) => stampExpiry(deps, visitorPointerKey(workspaceId, who, meta.conversationId), expires)),
    ...(planned.userId ? [stampExpiry(deps, userKey(meta.agentId, planned.userId), expires, meta.conversationId)] : []),
  ]);
  // The meta item last: a crash before it leaves the conversation to be stamped again next round.
  await stampExpiry(deps, { conversationId: meta.conversationId, sk: 'meta' }, expires);
}
