import type { Deps } from '../../infra/deps';
import { deleteIf, queryAll } from '../../infra/store/dynamo';
import type { InboundMailItem } from './repository';

/**
 * The mail records a visitor's export and erasure reach (domains/mail/visitor-data.ts), by key: a customer's by their
 * address (the `byCustomer` index), a conversation's (the `byConversation` index).
 */
const table = (deps: Deps) => deps.store.table('mail');

/** Every mail a sender's address wrote to the workspace (`customerKey` = `<workspace>#<address>`). */
export const queryMailsOfCustomer = (deps: Deps, workspaceId: string, address: string): Promise<InboundMailItem[]> =>
  queryAll(deps.store, {
    TableName: table(deps),
    IndexName: 'byCustomer',
    KeyConditionExpression: 'customerKey = :c',
    ExpressionAttributeValues: { ':c': `${workspaceId}#${address}` },
  });

/** Every mail threaded into (or held at) a conversation. */
export const queryMailsOfConversation = (deps: Deps, conversationId: string): Promise<InboundMailItem[]> =>
  queryAll(deps.store, {
    TableName: table(deps),
    IndexName: 'byConversation',
    KeyConditionExpression: 'conversationId = :c',
    ExpressionAttributeValues: { ':c': conversationId },
  });

/** Removes a mail's record; one gone already is fine. */
export async function deleteMailRecord(deps: Deps, mailId: string): Promise<void> {
  await deleteIf(deps.store, table(deps), { pk: `mail#${mailId}`, sk: 'mail' }, { ConditionExpression: 'attribute_exists(pk)' });
}
