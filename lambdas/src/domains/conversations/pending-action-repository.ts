import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { CHAT_LIMITS } from '@service/shared/widget-protocol';
import type { Deps } from '../../infra/deps';
import { deleteIf, updateIf } from '../../infra/store/dynamo';

/**
 * The conversations domain's store of visitors' pending actions (the confirm card) and of each conversation's tool-call
 * count: items of the `conversations` table; a failed condition comes back as a value.
 */

/** A real-world action a visitor's reply asked for, kept server-side until the visitor confirms or declines it. */
export interface PendingAction {
  toolName: string;
  input: Record<string, unknown>;
  summary: string;
  /** The conversation language of the turn that asked for it (absent on actions stored before it was kept). */
  language?: string;
}

const keyOf = (conversationId: string, actionId: string) => ({ conversationId, sk: `action#${actionId}` });

/** Stores the action under its conversation with an expiry; the id is what the visitor's Confirm names. */
export async function storePendingAction(deps: Deps, conversationId: string, action: PendingAction): Promise<string> {
  const actionId = crypto.randomUUID();
  const expiresAtMs = deps.now().getTime() + CHAT_LIMITS.confirmTtlMs;
  await deps.store.doc.send(
    new PutCommand({
      TableName: deps.store.table('conversations'),
      // The input travels as JSON text: the model chose its keys, and the marshaller must not meet them.
      Item: {
        ...keyOf(conversationId, actionId),
        toolName: action.toolName,
        input: JSON.stringify(action.input),
        summary: action.summary,
        ...(action.language ? { language: action.language } : {}),
        expiresAtMs,
        expiresAtEpoch: Math.ceil(expiresAtMs / 1000),
      },
    }),
  );
  return actionId;
}

/**
 * Takes the action out of the store, once: a conditional delete of an unexpired item of this conversation, so a
 * second Confirm, another conversation's id or a late click finds nothing (undefined).
 */
export async function takePendingActionItem(deps: Deps, conversationId: string, actionId: string): Promise<PendingAction | undefined> {
  const item = await deleteIf<{ toolName: string; input: string; summary: string; language?: string }>(
    deps.store,
    deps.store.table('conversations'),
    keyOf(conversationId, actionId),
    {
      ConditionExpression: 'attribute_exists(sk) AND expiresAtMs > :now',
      ExpressionAttributeValues: { ':now': deps.now().getTime() },
    },
  );
  return (
    item && {
      toolName: item.toolName,
      input: JSON.parse(item.input) as Record<string, unknown>,
      summary: item.summary,
      ...(item.language ? { language: item.language } : {}),
    }
  );
}

/** Counts one tool call against the conversation's limit; false once the conversation has used them all. */
export async function countConversationToolCall(deps: Deps, conversationId: string): Promise<boolean> {
  const counted = await updateIf(
    deps.store,
    deps.store.table('conversations'),
    { conversationId, sk: 'meta' },
    {
      UpdateExpression: 'ADD toolCalls :one',
      ConditionExpression: 'attribute_exists(conversationId) AND (attribute_not_exists(toolCalls) OR toolCalls < :max)',
      ExpressionAttributeValues: { ':one': 1, ':max': CHAT_LIMITS.toolCallsPerConversation },
    },
  );
  return counted !== undefined;
}
