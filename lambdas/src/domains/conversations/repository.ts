import { GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Deps } from '../../infra/deps';
import { ifConditionHolds } from '../../infra/store/dynamo';

/**
 * The conversations domain's repository: every store call of the `conversations` table (a `meta` item per
 * conversation, a `message#<id>` item per message, a `latest` pointer per verified user); a failed condition comes
 * back as a value.
 */
export interface StoredMessage {
  messageId: string;
  role: 'user' | 'assistant';
  content: string;
  createdAt: string;
  /** An assistant reply the visitor stopped while it was written: `content` is what was written until then. */
  stopped?: true;
}

export interface ConversationStart {
  conversationId: string;
  agentId: string;
  workspaceId: string;
  visitorId: string;
  locale: string;
  /** A verified user (the host signed their id): their conversation may continue from any device. */
  userId?: string;
}

const table = (deps: Deps) => deps.store.table('conversations');

/** Where a verified user's latest conversation with an agent is found (an item of its own; no index needed). */
const userKey = (agentId: string, userId: string) => ({ conversationId: `user#${agentId}#${userId}`, sk: 'latest' });

/**
 * Creates the conversation's `meta` item, or touches it when it exists and belongs to this agent and visitor (or
 * verified user); `created` tells a new conversation from a touched one; undefined when it belongs to another.
 */
export async function upsertConversationMeta(deps: Deps, start: ConversationStart, now: Date, expiresAtEpoch: number): Promise<{ created: boolean } | undefined> {
  const opened = await ifConditionHolds(
    deps.store.doc.send(
      new UpdateCommand({
        TableName: table(deps),
        Key: { conversationId: start.conversationId, sk: 'meta' },
        UpdateExpression:
          'SET agentId = :agent, workspaceId = :ws, visitorId = :visitor, locale = :locale, updatedAt = :now, ' +
          'createdAt = if_not_exists(createdAt, :now), messageCount = if_not_exists(messageCount, :zero), expiresAtEpoch = :expires' +
          (start.userId ? ', userId = :user' : ''),
        ConditionExpression: `attribute_not_exists(conversationId) OR (agentId = :agent AND (visitorId = :visitor${start.userId ? ' OR userId = :user' : ''}))`,
        ExpressionAttributeValues: {
          ':agent': start.agentId,
          ':ws': start.workspaceId,
          ':visitor': start.visitorId,
          ':locale': start.locale,
          ':now': now.toISOString(),
          ':zero': 0,
          ':expires': expiresAtEpoch,
          ...(start.userId ? { ':user': start.userId } : {}),
        },
        ReturnValues: 'UPDATED_OLD',
      }),
    ),
  );
  return opened && { created: opened.Attributes?.createdAt === undefined };
}

/** Counts one more message on the conversation's `meta` item; the new count. */
export async function countMessage(deps: Deps, conversationId: string): Promise<number> {
  const counter = await deps.store.doc.send(
    new UpdateCommand({
      TableName: table(deps),
      Key: { conversationId, sk: 'meta' },
      UpdateExpression: 'ADD messageCount :one',
      ConditionExpression: 'attribute_exists(conversationId)',
      ExpressionAttributeValues: { ':one': 1 },
      ReturnValues: 'UPDATED_NEW',
    }),
  );
  return Number(counter.Attributes?.messageCount ?? 0);
}

export async function putMessage(deps: Deps, conversationId: string, message: StoredMessage, expiresAtEpoch: number): Promise<void> {
  await deps.store.doc.send(
    new PutCommand({
      TableName: table(deps),
      Item: { conversationId, sk: `message#${message.messageId}`, ...message, expiresAtEpoch },
      ConditionExpression: 'attribute_not_exists(sk)',
    }),
  );
}

export async function putUserPointer(deps: Deps, agentId: string, userId: string, conversationId: string, expiresAtEpoch: number): Promise<void> {
  await deps.store.doc.send(new PutCommand({ TableName: table(deps), Item: { ...userKey(agentId, userId), latest: conversationId, expiresAtEpoch } }));
}

/** The verified user's latest conversation id with the agent, if any. */
export async function getUserPointer(deps: Deps, agentId: string, userId: string): Promise<string | undefined> {
  const pointer = await deps.store.doc.send(new GetCommand({ TableName: table(deps), Key: userKey(agentId, userId), ConsistentRead: true }));
  return pointer.Item?.latest as string | undefined;
}

/** The conversation's messages, at most `limit`: the latest ones newest first, or from the first one, oldest first. */
export async function queryMessages(deps: Deps, conversationId: string, limit: number, order: 'newest first' | 'oldest first'): Promise<StoredMessage[]> {
  const result = await deps.store.doc.send(
    new QueryCommand({
      TableName: table(deps),
      KeyConditionExpression: 'conversationId = :id AND begins_with(sk, :message)',
      ExpressionAttributeValues: { ':id': conversationId, ':message': 'message#' },
      ScanIndexForward: order === 'oldest first',
      Limit: limit,
      ConsistentRead: true,
    }),
  );
  return (result.Items ?? []).map(({ messageId, role, content, createdAt, stopped }) => ({ messageId, role, content, createdAt, ...(stopped ? { stopped } : {}) }) as StoredMessage);
}

/** The conversation's last `limit` messages, newest first. */
export const queryLatestMessages = (deps: Deps, conversationId: string, limit: number): Promise<StoredMessage[]> => queryMessages(deps, conversationId, limit, 'newest first');
