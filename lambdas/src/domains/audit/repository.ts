import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { Deps } from '../../infra/deps';
import { putIf } from '../../infra/store/dynamo';

/**
 * The audit domain's repository: the `auditLog` table. Append-only by construction: the one write is a PutItem on a key
 * not stored yet (no function is granted UpdateItem or DeleteItem on this table; cdk/test/audit-grants.test.ts).
 */
export interface AuditItem {
  workspaceId: string;
  /** `<time>#<id>`: the list's order, and unique. */
  sk: string;
  id: string;
  time: string;
  actor: { type: string; id: string | null; name: string | null };
  action: string;
  target: { type: string; id: string | null; name: string | null };
  before: unknown;
  after: unknown;
  sourceIp: string | null;
  userAgent: string | null;
  actorKey: string;
  actionKey: string;
  targetKey: string;
  expiresAtEpoch: number;
}

/** The index a filter reads, and the attribute it is keyed by. */
export type AuditIndex = 'byActor' | 'byAction' | 'byTarget';
const INDEX_KEY: Record<AuditIndex, keyof AuditItem> = { byActor: 'actorKey', byAction: 'actionKey', byTarget: 'targetKey' };

/** Stores the entry once: false when an entry with its key exists already (a retry of the same recording). */
export const putAuditItem = (deps: Deps, item: AuditItem): Promise<boolean> =>
  putIf(deps.store, deps.store.table('auditLog'), item, { ConditionExpression: 'attribute_not_exists(sk)' });

export interface AuditPageQuery {
  workspaceId: string;
  /** Read through an index: its partition value (`<workspace>#<…>`). */
  index?: { name: AuditIndex; value: string };
  /** Further conditions on other attributes (a second and third filter). */
  also: Partial<Record<'actorKey' | 'actionKey' | 'targetKey', string>>;
  /** sk bounds: from inclusive, to exclusive. */
  from?: string;
  to?: string;
  limit: number;
  start?: Record<string, unknown>;
}

/** A page of entries, newest first, with the key to go on from. */
export async function queryAuditItems(deps: Deps, query: AuditPageQuery): Promise<{ items: AuditItem[]; lastKey?: Record<string, unknown> }> {
  const partition = query.index ? INDEX_KEY[query.index.name] : 'workspaceId';
  const names: Record<string, string> = { '#p': partition };
  const values: Record<string, unknown> = { ':p': query.index ? query.index.value : query.workspaceId };
  let condition = '#p = :p';
  if (query.from !== undefined && query.to !== undefined) {
    condition += ' AND sk BETWEEN :from AND :to';
    Object.assign(values, { ':from': query.from, ':to': query.to });
  } else if (query.from !== undefined) {
    condition += ' AND sk >= :from';
    values[':from'] = query.from;
  } else if (query.to !== undefined) {
    condition += ' AND sk < :to';
    values[':to'] = query.to;
  }
  const filters = Object.entries(query.also).map(([attribute, value], i) => {
    names[`#f${i}`] = attribute;
    values[`:f${i}`] = value;
    return `#f${i} = :f${i}`;
  });
  const page = await deps.store.doc.send(
    new QueryCommand({
      TableName: deps.store.table('auditLog'),
      ...(query.index ? { IndexName: query.index.name } : {}),
      KeyConditionExpression: condition,
      ...(filters.length ? { FilterExpression: filters.join(' AND ') } : {}),
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
      ScanIndexForward: false,
      Limit: query.limit,
      ...(query.start ? { ExclusiveStartKey: query.start } : {}),
    }),
  );
  return { items: (page.Items ?? []) as AuditItem[], ...(page.LastEvaluatedKey ? { lastKey: page.LastEvaluatedKey } : {}) };
}
