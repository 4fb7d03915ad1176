import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { Deps } from '../../infra/deps';
import { createOrFind, readItem, updateIf } from '../../infra/store/dynamo';
import type { PlannedConversation } from '../conversations/visitor-conversations';

/**
 * The visitors domain's repository: every store call of the `visitorErasures` table. An erasure is one item, the audit
 * record: while unfinished it also carries what it erases (`target`, then `plan`) and `unfinished` (the sparse index a
 * sweeper reads); finishing removes those, so the record keeps no visitor's id, only its hash.
 */
export interface ErasureCounts {
  conversations: number;
  messages: number;
  pending_actions: number;
  contacts: number;
  webhook_deliveries: number;
  stored_responses: number;
  unanswered_questions: number;
  mails: number;
  mail_files: number;
}

export type { PlannedConversation };

export type ErasureTarget = { visitorId: string } | { userId: string } | { email: string } | { conversations: PlannedConversation[] };

export interface ErasureItem {
  workspaceId: string;
  /** `<started at>#<id>`: the audit list is newest first. */
  sk: string;
  id: string;
  state: 'in_progress' | 'completed';
  reason: 'request' | 'retention';
  requestedBy: { kind: 'member' | 'api_key' | 'retention'; id: string | null; name: string | null };
  visitorHash: string | null;
  startedAt: string;
  completedAt?: string;
  /** What was found, recorded once before anything is removed. */
  removed?: ErasureCounts;
  /** Present while unfinished. */
  unfinished?: 'erasure';
  target?: ErasureTarget;
  plan?: PlannedConversation[];
}

const table = (deps: Deps) => deps.store.table('visitorErasures');
const keyOf = (erasure: Pick<ErasureItem, 'workspaceId' | 'sk'>) => ({ workspaceId: erasure.workspaceId, sk: erasure.sk });

/** Stores the new erasure, or answers the one stored under its key (a retried request with the same Idempotency-Key). */
export const createErasureOrFind = async (deps: Deps, erasure: ErasureItem): Promise<ErasureItem> =>
  (await createOrFind(deps.store, 'visitorErasures', erasure, keyOf(erasure))).item;

export const readErasure = (deps: Deps, erasure: Pick<ErasureItem, 'workspaceId' | 'sk'>) => readItem<ErasureItem>(deps.store, table(deps), keyOf(erasure));

/** Records what the erasure will remove, once: the erasure as it now is, or undefined when another attempt recorded first. */
export const recordPlan = (deps: Deps, erasure: ErasureItem, removed: ErasureCounts, plan: PlannedConversation[]) =>
  updateIf<ErasureItem>(deps.store, table(deps), keyOf(erasure), {
    UpdateExpression: 'SET removed = :removed, #plan = :plan',
    ConditionExpression: 'attribute_exists(sk) AND attribute_not_exists(removed)',
    ExpressionAttributeNames: { '#plan': 'plan' },
    ExpressionAttributeValues: { ':removed': removed, ':plan': plan },
  });

/** Marks the erasure done and drops the visitor's ids it carried while it worked. */
export const completeErasure = (deps: Deps, erasure: ErasureItem, at: string) =>
  updateIf<ErasureItem>(deps.store, table(deps), keyOf(erasure), {
    UpdateExpression: 'SET #state = :completed, completedAt = if_not_exists(completedAt, :at) REMOVE unfinished, #target, #plan',
    ConditionExpression: 'attribute_exists(sk)',
    ExpressionAttributeNames: { '#state': 'state', '#target': 'target', '#plan': 'plan' },
    ExpressionAttributeValues: { ':completed': 'completed', ':at': at },
  });

/** A page of the workspace's erasures, newest first; `cursor` is the previous page's `next` (an sk). */
export async function queryErasures(
  deps: Deps,
  workspaceId: string,
  limit: number,
  cursor?: string,
): Promise<{ erasures: ErasureItem[]; next: string | null }> {
  const page = await deps.store.doc.send(
    new QueryCommand({
      TableName: table(deps),
      KeyConditionExpression: 'workspaceId = :w',
      ExpressionAttributeValues: { ':w': workspaceId },
      ScanIndexForward: false,
      Limit: limit,
      ...(cursor ? { ExclusiveStartKey: { workspaceId, sk: cursor } } : {}),
    }),
  );
  return { erasures: (page.Items ?? []) as ErasureItem[], next: (page.LastEvaluatedKey?.sk as string | undefined) ?? null };
}

/** Unfinished erasures started before `before` (ISO time): the ones a crash left, for the sweeper to finish. */
export async function queryUnfinishedErasures(deps: Deps, before: string, limit: number): Promise<ErasureItem[]> {
  const page = await deps.store.doc.send(
    new QueryCommand({
      TableName: table(deps),
      IndexName: 'unfinished',
      KeyConditionExpression: 'unfinished = :u AND sk < :before',
      ExpressionAttributeValues: { ':u': 'erasure', ':before': before },
      Limit: limit,
    }),
  );
  // The index holds keys and attributes of the item; the full item is read from the table, consistently.
  const found = await Promise.all(((page.Items ?? []) as ErasureItem[]).map((item) => readErasure(deps, item)));
  return found.filter((item): item is ErasureItem => item?.unfinished === 'erasure');
}
