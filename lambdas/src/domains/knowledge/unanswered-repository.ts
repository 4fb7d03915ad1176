import { PutCommand } from '@aws-sdk/lib-dynamodb';
import type { Deps } from '../../infra/deps';
import { deleteIf, queryAll, updateIf } from '../../infra/store/dynamo';

/** The knowledge domain's unanswered-question repository: every store call of the knowledgeUnanswered table. */
export interface StoredUnanswered {
  workspaceId: string;
  /** `unq_…`, from the agent and the normalised text: the same question to the same agent is one item. */
  id: string;
  agentId: string;
  /** Hash of the normalised text alone: an answer to the question clears it for every agent. */
  textKey: string;
  text: string;
  language: string;
  count: number;
  firstAskedAt: string;
  lastAskedAt: string;
  /** DynamoDB's TTL sweeps it after this; expiry is checked in code as well (dynalite has no TTL). */
  expiresAtEpoch: number;
}

const table = (deps: Deps) => deps.store.table('knowledgeUnanswered');

/**
 * Counts one more ask of the question: a new item, or the one stored (its first wording and first time kept). An item
 * past its expiry that the TTL has not swept yet starts over.
 */
export async function countAsked(deps: Deps, asked: Omit<StoredUnanswered, 'count' | 'firstAskedAt' | 'lastAskedAt'>, now: Date): Promise<void> {
  const at = now.toISOString();
  const counted = await updateIf(
    deps.store,
    table(deps),
    { workspaceId: asked.workspaceId, id: asked.id },
    {
      UpdateExpression:
        'SET agentId = :agent, textKey = :key, #text = if_not_exists(#text, :text), #language = :language, firstAskedAt = if_not_exists(firstAskedAt, :at), lastAskedAt = :at, expiresAtEpoch = :expires ADD #count :one',
      ConditionExpression: 'attribute_not_exists(id) OR expiresAtEpoch > :nowEpoch',
      ExpressionAttributeNames: { '#text': 'text', '#language': 'language', '#count': 'count' },
      ExpressionAttributeValues: {
        ':agent': asked.agentId,
        ':key': asked.textKey,
        ':text': asked.text,
        ':language': asked.language,
        ':at': at,
        ':expires': asked.expiresAtEpoch,
        ':one': 1,
        ':nowEpoch': Math.floor(now.getTime() / 1000),
      },
    },
  );
  if (counted) return;
  const fresh: StoredUnanswered = { ...asked, count: 1, firstAskedAt: at, lastAskedAt: at };
  await deps.store.doc.send(new PutCommand({ TableName: table(deps), Item: fresh }));
}

export const queryUnanswered = (deps: Deps, workspaceId: string) =>
  queryAll<StoredUnanswered>(deps.store, {
    TableName: table(deps),
    KeyConditionExpression: 'workspaceId = :w',
    ExpressionAttributeValues: { ':w': workspaceId },
    ConsistentRead: true,
  });

/** Removes one question: the item as it was, or undefined when there was none. */
export const deleteUnanswered = (deps: Deps, workspaceId: string, id: string) =>
  deleteIf<StoredUnanswered>(deps.store, table(deps), { workspaceId, id }, { ConditionExpression: 'attribute_exists(id)' });
