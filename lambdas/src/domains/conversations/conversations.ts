import { GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { DomainError } from '@service/shared';
import type { Deps } from '../../infra/deps';
import { ifConditionHolds } from '../../infra/store/dynamo';
import { listUnderAgent } from './agent-conversations';

/** Widget conversations are kept for 30 days (expiry checked by the TTL sweep in AWS; nothing reads them back past it). */
const RETENTION_SECONDS = 30 * 24 * 3600;

export interface ConversationStart {
  conversationId: string;
  agentId: string;
  workspaceId: string;
  visitorId: string;
  locale: string;
  /** A verified user (the host signed their id): their conversation may continue from any device. */
  userId?: string;
}

/**
 * Creates the conversation's `meta` item, or touches it when it exists. A conversation id belongs to one agent
 * and one visitor, or to one verified user on any device; anyone else presenting it is refused (one conditional
 * write, no read-then-write race).
 */
export async function openConversation(deps: Deps, start: ConversationStart): Promise<void> {
  const now = deps.now();
  const opened = await ifConditionHolds(
    deps.store.doc.send(
      new UpdateCommand({
        TableName: deps.store.table('conversations'),
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
          ':expires': Math.floor(now.getTime() / 1000) + RETENTION_SECONDS,
          ...(start.userId ? { ':user': start.userId } : {}),
        },
        ReturnValues: 'UPDATED_OLD',
      }),
    ),
  );
  if (!opened) throw new DomainError('VALIDATION_ERROR', 'This conversation id belongs to another conversation', { field: 'conversationId' });
  // A new conversation (no earlier createdAt) is listed under its agent (conversations/list).
  if (opened.Attributes?.createdAt === undefined) await listUnderAgent(deps, start, now, Math.floor(now.getTime() / 1000) + RETENTION_SECONDS);
  if (start.userId) await rememberUserConversation(deps, start.agentId, start.userId, start.conversationId, now);
}

/** Appends one message as its own item, keyed by time and a sequence so messages sort in order. */
export async function appendMessage(deps: Deps, conversationId: string, role: 'user' | 'assistant', content: string): Promise<string> {
  const now = deps.now();
  const counter = await deps.store.doc.send(
    new UpdateCommand({
      TableName: deps.store.table('conversations'),
      Key: { conversationId, sk: 'meta' },
      UpdateExpression: 'ADD messageCount :one',
      ConditionExpression: 'attribute_exists(conversationId)',
      ExpressionAttributeValues: { ':one': 1 },
      ReturnValues: 'UPDATED_NEW',
    }),
  );
  const sequence = Number(counter.Attributes?.messageCount ?? 0);
  const messageId = `msg_${String(sequence).padStart(6, '0')}`;
  await deps.store.doc.send(
    new PutCommand({
      TableName: deps.store.table('conversations'),
      Item: {
        conversationId,
        sk: `message#${messageId}`,
        messageId,
        role,
        content,
        createdAt: now.toISOString(),
        expiresAtEpoch: Math.floor(now.getTime() / 1000) + RETENTION_SECONDS,
      },
      ConditionExpression: 'attribute_not_exists(sk)',
    }),
  );
  return messageId;
}

/** Where a verified user's latest conversation with an agent is found (an item of its own; no index needed). */
const userKey = (agentId: string, userId: string) => ({ conversationId: `user#${agentId}#${userId}`, sk: 'latest' });

async function rememberUserConversation(deps: Deps, agentId: string, userId: string, conversationId: string, now: Date): Promise<void> {
  await deps.store.doc.send(
    new PutCommand({
      TableName: deps.store.table('conversations'),
      Item: { ...userKey(agentId, userId), latest: conversationId, expiresAtEpoch: Math.floor(now.getTime() / 1000) + RETENTION_SECONDS },
    }),
  );
}

export interface StoredMessage {
  messageId: string;
  role: 'user' | 'assistant';
  content: string;
  createdAt: string;
}

/** A verified user's latest conversation with the agent, its last `limit` messages oldest first; null when none. */
export async function userConversation(deps: Deps, agentId: string, userId: string, limit: number): Promise<{ conversationId: string; messages: StoredMessage[] } | null> {
  const pointer = await deps.store.doc.send(new GetCommand({ TableName: deps.store.table('conversations'), Key: userKey(agentId, userId), ConsistentRead: true }));
  const conversationId = pointer.Item?.latest as string | undefined;
  if (!conversationId) return null;
  const result = await deps.store.doc.send(
    new QueryCommand({
      TableName: deps.store.table('conversations'),
      KeyConditionExpression: 'conversationId = :id AND begins_with(sk, :message)',
      ExpressionAttributeValues: { ':id': conversationId, ':message': 'message#' },
      ScanIndexForward: false,
      Limit: limit,
      ConsistentRead: true,
    }),
  );
  const messages = (result.Items ?? []).reverse().map(({ messageId, role, content, createdAt }) => ({ messageId, role, content, createdAt }) as StoredMessage);
  return { conversationId, messages };
}
