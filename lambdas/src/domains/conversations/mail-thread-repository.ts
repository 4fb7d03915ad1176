import { PutCommand } from '@aws-sdk/lib-dynamodb';
import type { Deps } from '../../infra/deps';
import { putIf, readItem, updateIf } from '../../infra/store/dynamo';

/**
 * The store calls of e-mail threads (mail-thread.ts), items of the conversations table: a conversation's thread
 * (`<conversationId>` / `mailthread`: its reply token and the thread's Message-IDs), the token's pointer back to it
 * (`mailtoken#<token>`), and each Message-ID of the thread (`mailmsg#<agentId>#<hash>`: ours and the customer's).
 */
const table = (deps: Deps) => deps.store.table('conversations');

export interface MailThreadItem {
  conversationId: string;
  token: string;
  /** The thread's Message-IDs, oldest first (the References of our next mail), at most THREAD_REFERENCES. */
  references: string[];
}

export const THREAD_REFERENCES = 20;

const threadKey = (conversationId: string) => ({ conversationId, sk: 'mailthread' });
const tokenKey = (token: string) => ({ conversationId: `mailtoken#${token}`, sk: 'thread' });
const messageKey = (agentId: string, messageHash: string) => ({ conversationId: `mailmsg#${agentId}#${messageHash}`, sk: 'message' });

export const readMailThread = (deps: Deps, conversationId: string) => readItem<MailThreadItem>(deps.store, table(deps), threadKey(conversationId));

/** Starts the conversation's thread with `token` unless it has one; false then (the caller reads the one stored). */
export const putMailThread = (deps: Deps, conversationId: string, token: string, expiresAtEpoch: number | undefined) =>
  putIf(
    deps.store,
    table(deps),
    { ...threadKey(conversationId), token, references: [], ...(expiresAtEpoch === undefined ? {} : { expiresAtEpoch }) },
    { ConditionExpression: 'attribute_not_exists(sk)' },
  );

/** The token's pointer to its conversation (put before the token is ever sent). */
export async function putTokenPointer(deps: Deps, token: string, conversationId: string, agentId: string, expiresAtEpoch: number | undefined): Promise<void> {
  await deps.store.doc.send(
    new PutCommand({
      TableName: table(deps),
      Item: { ...tokenKey(token), ref: conversationId, agentId, ...(expiresAtEpoch === undefined ? {} : { expiresAtEpoch }) },
    }),
  );
}

export const readTokenPointer = (deps: Deps, token: string) => readItem<{ ref: string; agentId: string }>(deps.store, table(deps), tokenKey(token));

/** Keeps a Message-ID of the thread: its pointer, and its place in the thread's References (the latest THREAD_REFERENCES). */
export async function putThreadMessage(
  deps: Deps,
  agentId: string,
  messageHash: string,
  messageId: string,
  conversationId: string,
  outbound: boolean,
  references: string[],
  expiresAtEpoch: number | undefined,
): Promise<void> {
  await deps.store.doc.send(
    new PutCommand({
      TableName: table(deps),
      Item: { ...messageKey(agentId, messageHash), ref: conversationId, outbound, ...(expiresAtEpoch === undefined ? {} : { expiresAtEpoch }) },
    }),
  );
  if (references.includes(messageId)) return;
  await updateIf(deps.store, table(deps), threadKey(conversationId), {
    UpdateExpression: 'SET #references = :references',
    ConditionExpression: 'attribute_exists(sk)',
    ExpressionAttributeNames: { '#references': 'references' },
    ExpressionAttributeValues: { ':references': [...references, messageId].slice(-THREAD_REFERENCES) },
  });
}

export const readThreadMessage = (deps: Deps, agentId: string, messageHash: string) =>
  readItem<{ ref: string; outbound: boolean }>(deps.store, table(deps), messageKey(agentId, messageHash));
