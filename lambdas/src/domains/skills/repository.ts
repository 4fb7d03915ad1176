import { DeleteCommand, GetCommand } from '@aws-sdk/lib-dynamodb';
import type { Deps } from '../../infra/deps';
import { putIf, queryAll } from '../../infra/store/dynamo';

/**
 * The skills domain's repository: every store call of the `skills` table. The table holds everything a workspace decides about skills, one item per fact, keyed by sk prefix:
 * `role#<name>`, `grant#<role>#<capability>`, `registered#<code>`, `connection#<provider>`, `turn#<jti>`.
 */
export type SkillItemKind = 'role' | 'grant' | 'registered' | 'connection' | 'turn';

const table = (deps: Deps) => deps.store.table('skills');

/** Stores an item; with `onlyIfAbsent`, false when one is already there. */
export async function putSkillItem(deps: Deps, workspaceId: string, sk: string, item: object, onlyIfAbsent = false): Promise<boolean> {
  return putIf(deps.store, table(deps), { ...item, workspaceId, sk }, onlyIfAbsent ? { ConditionExpression: 'attribute_not_exists(sk)' } : {});
}

export async function getSkillItem<T>(deps: Deps, workspaceId: string, sk: string): Promise<T | undefined> {
  const result = await deps.store.doc.send(new GetCommand({ TableName: table(deps), Key: { workspaceId, sk }, ConsistentRead: true }));
  return result.Item as T | undefined;
}

/** Deletes an item; false when there was none. */
export async function deleteSkillItem(deps: Deps, workspaceId: string, sk: string): Promise<boolean> {
  const result = await deps.store.doc.send(new DeleteCommand({ TableName: table(deps), Key: { workspaceId, sk }, ReturnValues: 'ALL_OLD' }));
  return result.Attributes !== undefined;
}

export async function querySkillItems<T>(deps: Deps, workspaceId: string, kind: SkillItemKind): Promise<T[]> {
  return queryAll<T>(deps.store, {
    TableName: table(deps),
    KeyConditionExpression: 'workspaceId = :w AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':w': workspaceId, ':prefix': `${kind}#` },
    ConsistentRead: true,
  });
}
