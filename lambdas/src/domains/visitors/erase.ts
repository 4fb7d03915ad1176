import { randomBase62 } from '@service/shared';
import { createHash } from 'node:crypto';
import type { Deps } from '../../infra/deps';
import type { Action } from '../../infra/store/idempotency';
import { eraseConversationItems, tombstoneConversations, type PlannedConversation } from '../conversations/visitor-conversations';
import { completeErasure, createErasureOrFind, queryErasures, readErasure, recordPlan, type ErasureItem } from './erasure-repository';
import { countsOf, findVisitorData, targetConversations, type VisitorTarget } from './visitor-data';

/**
 * Erasing a visitor's data (visitors/erase) or expired conversations (the retention sweeper), so that a crash at any
 * point leaves a job a retry finishes, never half of one:
 * 1. the erasure record is stored first (the audit record, unfinished, with its target);
 * 2. what will go is found and recorded on it once (counts and the conversations), before anything is removed;
 * 3. each conversation's `meta` item becomes a tombstone, so nothing writes to it any more (410 CONVERSATION_ERASED);
 * 4. what derives from the conversations goes, each owner's (visitors/owners.ts: contacts, webhook deliveries, stored
 *    replies, unanswered questions, rating comments, inbound mails and their files), found again from what is left, before the messages whose text
 *    finds the questions;
 * 5. the conversations' items and pointers go; the record is marked completed and drops the ids it carried.
 * Every removal is a conditional delete that tolerates "already gone", so running the steps again is harmless.
 */

export type { ErasureItem };
export type Requester = ErasureItem['requestedBy'];

/** Which visitor, without keeping who: the SHA-256 of the workspace, the kind of id and the id. */
export const visitorHash = (workspaceId: string, who: VisitorTarget): string =>
  createHash('sha256')
    .update(
      'visitorId' in who
        ? `${workspaceId}:visitor:${who.visitorId}`
        : 'userId' in who
          ? `${workspaceId}:user:${who.userId}`
          : `${workspaceId}:email:${who.email}`,
    )
    .digest('hex');

/** Starts (or, retried with the same Idempotency-Key, resumes) the erasure of a visitor's data, and finishes it. */
export async function eraseVisitor(deps: Deps, workspaceId: string, who: VisitorTarget, requestedBy: Requester, action: Action): Promise<ErasureItem> {
  const erasure = await startErasure(deps, { workspaceId, reason: 'request', requestedBy, visitorHash: visitorHash(workspaceId, who), target: who }, action);
  return finishErasure(deps, erasure);
}

/** Erases the given conversations (the retention sweeper's expired ones) under one audit record. */
export async function eraseConversations(deps: Deps, workspaceId: string, conversations: PlannedConversation[]): Promise<ErasureItem> {
  const erasure = await startErasure(
    deps,
    { workspaceId, reason: 'retention', requestedBy: { kind: 'retention', id: null, name: null }, visitorHash: null, target: { conversations } },
    { at: deps.now() },
  );
  return finishErasure(deps, erasure);
}

async function startErasure(
  deps: Deps,
  erasure: Pick<ErasureItem, 'workspaceId' | 'reason' | 'requestedBy' | 'visitorHash' | 'target'>,
  action: Action,
): Promise<ErasureItem> {
  const id = `era_${randomBase62(16, action.seed)}`;
  const startedAt = action.at.toISOString();
  return createErasureOrFind(deps, { ...erasure, sk: `${startedAt}#${id}`, id, state: 'in_progress', startedAt, unfinished: 'erasure' });
}

/** Runs the steps of an unfinished erasure from wherever an earlier attempt stopped; the completed record. */
export async function finishErasure(deps: Deps, started: ErasureItem): Promise<ErasureItem> {
  if (started.state === 'completed') return started;
  const erasure = started.plan ? started : await planErasure(deps, started);
  const plan = erasure.plan ?? [];
  await tombstoneConversations(deps, erasure.workspaceId, plan, deps.now().toISOString());
  const left = await findVisitorData(deps, erasure.workspaceId, plan, emailOf(erasure));
  await Promise.all(left.held.map((held) => held.erase()));
  await eraseConversationItems(deps, erasure.workspaceId, left.conversations);
  return (await completeErasure(deps, erasure, deps.now().toISOString())) ?? erasure;
}

/** The address an erasure by `email` names: what the mail domain keeps by address goes too. */
const emailOf = (erasure: ErasureItem) => (erasure.target && 'email' in erasure.target ? erasure.target.email : undefined);

/** Finds what the erasure removes and records it once; the record as stored (another attempt may have recorded first). */
async function planErasure(deps: Deps, erasure: ErasureItem): Promise<ErasureItem> {
  const target = erasure.target;
  const plan = !target ? [] : 'conversations' in target ? target.conversations : await targetConversations(deps, erasure.workspaceId, target);
  const found = await findVisitorData(deps, erasure.workspaceId, plan, emailOf(erasure));
  return (await recordPlan(deps, erasure, countsOf(found), plan)) ?? (await readErasure(deps, erasure)) ?? erasure;
}

/** A page of the workspace's erasures (the audit list), newest first; `cursor` is the previous page's `next`. */
export const listErasures = (deps: Deps, workspaceId: string, limit: number, cursor?: string) => queryErasures(deps, workspaceId, limit, cursor);
