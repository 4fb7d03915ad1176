import type { Deps } from '../../infra/deps';
import { logger } from '../../infra/logger';
import { scanWorkspacesWithRetention } from '../access/workspaces';
import { listAgents } from '../agents/agents';
import { erasureDue, expiryFor } from '../conversations/retention';
import {
  agentConversationMetas,
  MAX_VISITOR_CONVERSATIONS,
  plannedFrom,
  restampConversation,
  type PlannedConversation,
} from '../conversations/visitor-conversations';
import { eraseConversations, finishErasure } from './erase';
import { queryUnfinishedErasures } from './erasure-repository';
import { recordRetentionErasure } from './retention-audit';

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
      for await (const meta of agentConversationMetas(deps, agent.id, PAGE)) {
        if (meta.erasedAt) continue;
        const due = erasureDue(workspace.retentionDays, new Date(meta.updatedAt));
        if (due && due <= now) {
          if (expired.length < MAX_VISITOR_CONVERSATIONS) expired.push(plannedFrom(meta));
        } else if (meta.expiresAtEpoch !== expiryFor(workspace.retentionDays, new Date(meta.updatedAt))) {
          await restampConversation(deps, workspace.id, meta, expiryFor(workspace.retentionDays, new Date(meta.updatedAt)));
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
