import { BatchGetCommand, GetCommand, type BatchGetCommandOutput, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type {
  ConversationChannel,
  ConversationEmail,
  ConversationEventType,
  ConversationHandler,
  HandoffReason,
  PreviewRole,
  Teammate,
  TranscriptRole,
} from '@service/shared/live-conversation';
import type { Deps } from '../../infra/deps';
import { ifConditionHolds, putIf, readItem, updateIf } from '../../infra/store/dynamo';

/**
 * The conversations domain's repository: every store call of the `conversations` table (a `meta` item per
 * conversation, a `message#<id>` item per transcript entry, a `latest` pointer per verified user); a failed condition
 * comes back as a value.
 */
export interface StoredMessage {
  /** `msg_<seq>`, seq padded to six digits: the sort order of the transcript. */
  messageId: string;
  role: TranscriptRole;
  content: string;
  createdAt: string;
  /** An assistant reply the visitor stopped while it was written: `content` is what was written until then. */
  stopped?: true;
  /** The teammate of a `teammate`, `note` or `event` entry. */
  author?: Teammate;
  /** What an `event` entry records. */
  event?: ConversationEventType;
  /** The seed of the idempotent request that wrote it: a resumed retry finds it instead of writing it again. */
  actionSeed?: string;
  /** A teammate's reply sent to the visitor by e-mail: when (a retry finds it and sends no second mail). */
  mailedAt?: string;
  /** How many sends of that mail were started (recorded before each): a crash inside one leaves it unknown whether it went. */
  mailAttempts?: number;
}

/** The last message's first line (previewLine), kept on the `meta` item so that a list shows it without reading the transcript. */
export interface StoredPreview {
  seq: number;
  role: PreviewRole;
  text: string;
  at: string;
}

/** Who handles a conversation, as its `meta` item keeps it (absent on a conversation no one ever took: the agent). */
export interface Handling {
  handler: ConversationHandler;
  assignee?: Teammate;
  /** `page`: the page the widget was on when it passed to people. */
  handoff?: { reason: HandoffReason; summary: string; requestedAt: string; page?: string };
}

/** A conversation's `meta` item: who it belongs to, how many entries its transcript has, who handles it. */
export interface ConversationMetaItem extends Partial<Handling> {
  conversationId: string;
  agentId: string;
  workspaceId: string;
  visitorId: string;
  /** Every visitor id it was opened with (absent on conversations from before it was kept). */
  visitorIds?: Set<string>;
  userId?: string;
  locale: string;
  createdAt: string;
  updatedAt: string;
  messageCount: number;
  /** Absent on a widget conversation (every conversation from before e-mail reads as `widget`). */
  channel?: ConversationChannel;
  /** An e-mail conversation's customer address and subject. */
  email?: ConversationEmail;
  /** The page the widget was on when the conversation started. */
  page?: string;
  /** Bumped by every change of hands: a change applies only to the version it was decided on. */
  handlingVersion?: number;
  /** The last change of hands' transcript entry, so that a retry after a crash can still store it. */
  lastEvent?: StoredMessage;
  /** A teammate typing: shown until `until` (epoch ms). */
  typing?: { name: string; until: number };
  /** Nobody was available: the agent's request for an e-mail address, kept so a retry after a crash can still store it. */
  emailRequest?: StoredMessage;
  /** The conversation's language when the agent asked for the address: the language of the replies by e-mail. */
  emailLanguage?: string;
  /** The address the visitor left. */
  visitorEmail?: string;
  /** Teammates' replies go to `visitorEmail` too: set when the visitor leaves it, cleared when they write in the widget again. */
  emailReplies?: boolean;
  /** The last message's preview (absent until one is written, and on conversations from before it was kept). */
  preview?: StoredPreview;
  /** Set when the visitor's data was erased: the item is then a tombstone without it, and nothing writes here any more. */
  erasedAt?: string;
  /** DynamoDB's TTL: the last activity plus the workspace's retention; absent while the workspace keeps conversations. */
  expiresAtEpoch?: number;
}

export interface ConversationStart {
  conversationId: string;
  agentId: string;
  workspaceId: string;
  visitorId: string;
  locale: string;
  /** A verified user (the host signed their id): their conversation may continue from any device. */
  userId?: string;
  /** The page the widget is on (an http(s) address, checked by the widget surface): kept from the conversation's start. */
  page?: string;
  /** A conversation started by an e-mail: its customer's address and subject (kept from its start). */
  email?: ConversationEmail;
}

const table = (deps: Deps) => deps.store.table('conversations');

/** Where a verified user's latest conversation with an agent is found (an item of its own; no index needed). */
export const userKey = (agentId: string, userId: string) => ({ conversationId: `user#${agentId}#${userId}`, sk: 'latest' });

/**
 * Creates the conversation's `meta` item, or touches it when it exists and belongs to this agent and visitor (or
 * verified user); `created` tells a new conversation from a touched one; undefined when it belongs to another.
 */
export async function upsertConversationMeta(
  deps: Deps,
  start: ConversationStart,
  now: Date,
  expiresAtEpoch: number | undefined,
): Promise<{ created: boolean; handler: ConversationHandler } | undefined> {
  const opened = await ifConditionHolds(
    deps.store.doc.send(
      new UpdateCommand({
        TableName: table(deps),
        Key: { conversationId: start.conversationId, sk: 'meta' },
        UpdateExpression:
          'SET agentId = :agent, workspaceId = :ws, visitorId = :visitor, locale = :locale, updatedAt = :now, ' +
          'createdAt = if_not_exists(createdAt, :now), messageCount = if_not_exists(messageCount, :zero)' +
          (expiresAtEpoch === undefined ? '' : ', expiresAtEpoch = :expires') +
          (start.userId ? ', userId = :user' : '') +
          (start.page ? ', page = if_not_exists(page, :page)' : '') +
          (start.email ? ', channel = if_not_exists(channel, :email_channel), email = if_not_exists(email, :email)' : '') +
          // A workspace that keeps its conversations: no expiry for DynamoDB's TTL.
          (expiresAtEpoch === undefined ? ' REMOVE expiresAtEpoch' : '') +
          // Every visitor id it was opened with (a verified user's devices): what an erasure must find.
          ' ADD visitorIds :visitors',
        ConditionExpression: `attribute_not_exists(conversationId) OR (agentId = :agent AND (visitorId = :visitor${start.userId ? ' OR userId = :user' : ''}))`,
        ExpressionAttributeValues: {
          ':agent': start.agentId,
          ':ws': start.workspaceId,
          ':visitor': start.visitorId,
          ':visitors': new Set([start.visitorId]),
          ':locale': start.locale,
          ':now': now.toISOString(),
          ':zero': 0,
          ...(expiresAtEpoch === undefined ? {} : { ':expires': expiresAtEpoch }),
          ...(start.userId ? { ':user': start.userId } : {}),
          ...(start.page ? { ':page': start.page } : {}),
          ...(start.email ? { ':email': start.email, ':email_channel': 'email' } : {}),
        },
        ReturnValues: 'ALL_OLD',
      }),
    ),
  );
  return opened && { created: opened.Attributes?.createdAt === undefined, handler: (opened.Attributes?.handler as ConversationHandler | undefined) ?? 'agent' };
}

/** Counts one more message on the conversation's `meta` item (never an erased one's); the new count and the workspace. */
export async function countMessage(deps: Deps, conversationId: string): Promise<{ count: number; workspaceId: string }> {
  const counter = await deps.store.doc.send(
    new UpdateCommand({
      TableName: table(deps),
      Key: { conversationId, sk: 'meta' },
      UpdateExpression: 'ADD messageCount :one',
      ConditionExpression: 'attribute_exists(conversationId) AND attribute_not_exists(erasedAt)',
      ExpressionAttributeValues: { ':one': 1 },
      ReturnValues: 'ALL_NEW',
    }),
  );
  return { count: Number(counter.Attributes?.messageCount ?? 0), workspaceId: String(counter.Attributes?.workspaceId) };
}

/**
 * Keeps the preview of the entry at `preview.seq` on the conversation, unless a later entry's is there already (two
 * entries written at once: the last one's stays) or the conversation was erased.
 */
export async function putPreview(deps: Deps, conversationId: string, preview: StoredPreview): Promise<void> {
  await updateIf(
    deps.store,
    table(deps),
    { conversationId, sk: 'meta' },
    {
      UpdateExpression: 'SET preview = :preview',
      ConditionExpression: 'attribute_exists(conversationId) AND attribute_not_exists(erasedAt) AND (attribute_not_exists(preview) OR preview.seq < :seq)',
      ExpressionAttributeValues: { ':preview': preview, ':seq': preview.seq },
    },
  );
}

/** The TTL attribute of an item, absent when the workspace keeps its conversations. */
export const expiryAttribute = (expiresAtEpoch: number | undefined) => (expiresAtEpoch === undefined ? {} : { expiresAtEpoch });

export async function putMessage(deps: Deps, conversationId: string, message: StoredMessage, expiresAtEpoch: number | undefined): Promise<void> {
  await deps.store.doc.send(
    new PutCommand({
      TableName: table(deps),
      Item: { conversationId, sk: `message#${message.messageId}`, ...message, ...expiryAttribute(expiresAtEpoch) },
      ConditionExpression: 'attribute_not_exists(sk)',
    }),
  );
}

export async function putUserPointer(deps: Deps, agentId: string, userId: string, conversationId: string, expiresAtEpoch: number | undefined): Promise<void> {
  await deps.store.doc.send(
    new PutCommand({ TableName: table(deps), Item: { ...userKey(agentId, userId), latest: conversationId, ...expiryAttribute(expiresAtEpoch) } }),
  );
}

/** The verified user's latest conversation id with the agent, if any. */
export async function getUserPointer(deps: Deps, agentId: string, userId: string): Promise<string | undefined> {
  const pointer = await deps.store.doc.send(new GetCommand({ TableName: table(deps), Key: userKey(agentId, userId), ConsistentRead: true }));
  return pointer.Item?.latest as string | undefined;
}

/** The conversation's `meta` item, read consistently (it decides who may write what). */
export const readConversationMeta = (deps: Deps, conversationId: string): Promise<ConversationMetaItem | undefined> =>
  readItem<ConversationMetaItem>(deps.store, table(deps), { conversationId, sk: 'meta' });

/** BatchGetItem's limit of keys a request. */
const BATCH_GET_KEYS = 100;

/**
 * The `meta` items of several conversations, read consistently, 100 a request (the live streams' polls of one process
 * together). A key DynamoDB left unprocessed (throttling) is read again once, then left out: its poll reads it next time.
 */
export async function readConversationMetas(deps: Deps, conversationIds: readonly string[]): Promise<Map<string, ConversationMetaItem>> {
  const found = new Map<string, ConversationMetaItem>();
  const unique = [...new Set(conversationIds)];
  const requests = Array.from({ length: Math.ceil(unique.length / BATCH_GET_KEYS) }, (_, index) =>
    unique.slice(index * BATCH_GET_KEYS, (index + 1) * BATCH_GET_KEYS),
  );
  await Promise.all(
    requests.map(async (ids) => {
      let keys: Record<string, unknown>[] | undefined = ids.map((conversationId) => ({ conversationId, sk: 'meta' }));
      for (let attempt = 0; attempt < 2 && keys?.length; attempt += 1) {
        const answer: BatchGetCommandOutput = await deps.store.doc.send(
          new BatchGetCommand({ RequestItems: { [table(deps)]: { Keys: keys, ConsistentRead: true } } }),
        );
        for (const meta of (answer.Responses?.[table(deps)] ?? []) as ConversationMetaItem[]) found.set(meta.conversationId, meta);
        keys = answer.UnprocessedKeys?.[table(deps)]?.Keys;
      }
    }),
  );
  return found;
}

/**
 * Changes who handles the conversation, if nothing changed since `seen` was read (its version, and with an `event`
 * entry its transcript count, whose next position the entry takes). The entry is kept on the item until putMessage
 * stores it, so a retry after a crash can still store it. The item as it now is, or undefined when something came first.
 */
export async function updateHandling(
  deps: Deps,
  seen: Pick<ConversationMetaItem, 'conversationId' | 'handlingVersion' | 'messageCount'>,
  next: Handling,
  event: StoredMessage | undefined,
  expiresAtEpoch: number | undefined,
): Promise<ConversationMetaItem | undefined> {
  const version = seen.handlingVersion ?? 0;
  // `handler` is one of DynamoDB's reserved words: every attribute goes by name.
  const sets = ['#handler = :handler', '#version = :next', 'updatedAt = :now', ...(expiresAtEpoch === undefined ? [] : ['expiresAtEpoch = :expires'])];
  const removes = ['#typing', ...(expiresAtEpoch === undefined ? ['expiresAtEpoch'] : [])];
  const names: Record<string, string> = { '#handler': 'handler', '#version': 'handlingVersion', '#typing': 'typing', '#assignee': 'assignee' };
  const values: Record<string, unknown> = {
    ':handler': next.handler,
    ':next': version + 1,
    ':version': version,
    ':zero': 0,
    ':now': deps.now().toISOString(),
    ...(expiresAtEpoch === undefined ? {} : { ':expires': expiresAtEpoch }),
  };
  if (next.assignee) {
    sets.push('#assignee = :assignee');
    values[':assignee'] = next.assignee;
  } else removes.push('#assignee');
  if (next.handoff) {
    sets.push('#handoff = :handoff');
    names['#handoff'] = 'handoff';
    values[':handoff'] = next.handoff;
  }
  if (event) {
    sets.push('#lastEvent = :event', '#count = :seq');
    Object.assign(names, { '#lastEvent': 'lastEvent', '#count': 'messageCount' });
    Object.assign(values, { ':event': event, ':seq': seqOf(event.messageId), ':count': Number(seen.messageCount ?? 0) });
  }
  return updateIf<ConversationMetaItem>(
    deps.store,
    table(deps),
    { conversationId: seen.conversationId, sk: 'meta' },
    {
      UpdateExpression: `SET ${sets.join(', ')} REMOVE ${removes.join(', ')}`,
      ConditionExpression:
        'attribute_exists(conversationId) AND attribute_not_exists(erasedAt) AND (#version = :version OR (attribute_not_exists(#version) AND :version = :zero))' +
        (event ? ' AND #count = :count' : ''),
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
    },
  );
}

/** Stores a transcript entry unless it is stored already (a retry of the same entry); false then. */
export const putMessageOnce = (deps: Deps, conversationId: string, message: StoredMessage, expiresAtEpoch: number | undefined): Promise<boolean> =>
  putIf(
    deps.store,
    table(deps),
    { conversationId, sk: `message#${message.messageId}`, ...message, ...expiryAttribute(expiresAtEpoch) },
    { ConditionExpression: 'attribute_not_exists(sk)' },
  );

/** Shows a teammate typing until `until` (epoch ms); false when the conversation is unknown. */
export async function putTyping(deps: Deps, conversationId: string, typing: { name: string; until: number }): Promise<boolean> {
  const set = await updateIf(
    deps.store,
    table(deps),
    { conversationId, sk: 'meta' },
    {
      UpdateExpression: 'SET #typing = :typing',
      ConditionExpression: 'attribute_exists(conversationId)',
      ExpressionAttributeNames: { '#typing': 'typing' },
      ExpressionAttributeValues: { ':typing': typing },
    },
  );
  return set !== undefined;
}

/** The entry id of transcript position `seq`. */
export const messageIdOf = (seq: number): string => `msg_${String(seq).padStart(6, '0')}`;
/** One transcript entry by its id, read consistently, or undefined. */
export const readMessage = (deps: Deps, conversationId: string, messageId: string): Promise<StoredMessage | undefined> =>
  readItem<StoredMessage>(deps.store, table(deps), { conversationId, sk: `message#${messageId}` });

/** The transcript position of an entry id. */
export const seqOf = (messageId: string): number => Number(messageId.slice(4));

const toStoredMessage = ({ messageId, role, content, createdAt, stopped, author, event, actionSeed, mailedAt }: Record<string, unknown>): StoredMessage =>
  ({
    messageId,
    role,
    content,
    createdAt,
    ...(stopped ? { stopped } : {}),
    ...(author ? { author } : {}),
    ...(event ? { event } : {}),
    ...(actionSeed ? { actionSeed } : {}),
    ...(mailedAt ? { mailedAt } : {}),
  }) as StoredMessage;

/**
 * Records that nobody was available, if the conversation still waits for a teammate and nothing was written since
 * `seen` was read: the request entry takes the transcript's next position and stays on the item until putMessageOnce
 * stores it (a retry after a crash stores it then). The item as it now is, or undefined when it no longer applies.
 */
export async function putEmailRequest(
  deps: Deps,
  seen: Pick<ConversationMetaItem, 'conversationId' | 'messageCount'>,
  entry: StoredMessage,
  language: string,
): Promise<ConversationMetaItem | undefined> {
  return updateIf<ConversationMetaItem>(
    deps.store,
    table(deps),
    { conversationId: seen.conversationId, sk: 'meta' },
    {
      UpdateExpression: 'SET emailRequest = :entry, emailLanguage = :language, messageCount = :seq, updatedAt = :now',
      ConditionExpression:
        'attribute_exists(conversationId) AND attribute_not_exists(emailRequest) AND #handler = :people AND attribute_not_exists(assignee) AND messageCount = :count',
      ExpressionAttributeNames: { '#handler': 'handler' },
      ExpressionAttributeValues: {
        ':entry': entry,
        ':language': language,
        ':seq': seqOf(entry.messageId),
        ':count': Number(seen.messageCount ?? 0),
        ':people': 'people',
        ':now': entry.createdAt,
      },
    },
  );
}

/** Keeps the address the visitor left; teammates' replies go to it from now on. False when the conversation is unknown. */
export async function putVisitorEmail(deps: Deps, conversationId: string, email: string): Promise<boolean> {
  const set = await updateIf(
    deps.store,
    table(deps),
    { conversationId, sk: 'meta' },
    {
      UpdateExpression: 'SET visitorEmail = :email, emailReplies = :on',
      ConditionExpression: 'attribute_exists(conversationId)',
      ExpressionAttributeValues: { ':email': email, ':on': true },
    },
  );
  return set !== undefined;
}

/** The visitor is back in the widget: teammates' replies stop going by e-mail (a no-op when they did not). */
export async function stopEmailReplies(deps: Deps, conversationId: string): Promise<void> {
  await updateIf(
    deps.store,
    table(deps),
    { conversationId, sk: 'meta' },
    {
      UpdateExpression: 'SET emailReplies = :off',
      ConditionExpression: 'emailReplies = :on',
      ExpressionAttributeValues: { ':off': false, ':on': true },
    },
  );
}

/**
 * Records that a send of the entry's mail starts, unless it was mailed or MAIL_ATTEMPTS sends were started already;
 * whether to send.
 */
export const startMailAttempt = (deps: Deps, conversationId: string, messageId: string, maxAttempts: number): Promise<boolean> =>
  updateIf(
    deps.store,
    table(deps),
    { conversationId, sk: `message#${messageId}` },
    {
      UpdateExpression: 'ADD mailAttempts :one',
      ConditionExpression: 'attribute_exists(sk) AND attribute_not_exists(mailedAt) AND (attribute_not_exists(mailAttempts) OR mailAttempts < :max)',
      ExpressionAttributeValues: { ':one': 1, ':max': maxAttempts },
    },
  ).then((set) => set !== undefined);

/** Records that a transcript entry was mailed to the visitor; false when it was recorded already. */
export const markMailed = (deps: Deps, conversationId: string, messageId: string, at: Date): Promise<boolean> =>
  updateIf(
    deps.store,
    table(deps),
    { conversationId, sk: `message#${messageId}` },
    {
      UpdateExpression: 'SET mailedAt = :at',
      ConditionExpression: 'attribute_exists(sk) AND attribute_not_exists(mailedAt)',
      ExpressionAttributeValues: { ':at': at.toISOString() },
    },
  ).then((set) => set !== undefined);

/** The entries after position `afterSeq`, oldest first, at most `limit`. */
export async function queryMessagesAfter(deps: Deps, conversationId: string, afterSeq: number, limit: number): Promise<StoredMessage[]> {
  const result = await deps.store.doc.send(
    new QueryCommand({
      TableName: table(deps),
      KeyConditionExpression: 'conversationId = :id AND sk BETWEEN :from AND :to',
      ExpressionAttributeValues: { ':id': conversationId, ':from': `message#${messageIdOf(afterSeq + 1)}`, ':to': 'message#msg_999999' },
      Limit: limit,
      ConsistentRead: true,
    }),
  );
  return (result.Items ?? []).map(toStoredMessage);
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
  return (result.Items ?? []).map(toStoredMessage);
}

/** The conversation's last `limit` messages, newest first. */
export const queryLatestMessages = (deps: Deps, conversationId: string, limit: number): Promise<StoredMessage[]> =>
  queryMessages(deps, conversationId, limit, 'newest first');
