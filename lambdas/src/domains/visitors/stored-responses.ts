import type { Deps } from '../../infra/deps';
import { deleteStoredResponse, findStoredResponsesMentioning } from '../../infra/store/idempotency';
import type { PlannedConversation } from '../conversations/visitor-conversations';

/** What mentions these conversations or their visitors in a stored reply's text. */
function needlesOf(plan: PlannedConversation[]): string[] {
  const needles = plan.flatMap((conversation) => [
    conversation.conversationId,
    ...conversation.visitorIds,
    // A verified user id may be short: it is looked for as the JSON field it travels in.
    ...(conversation.userId ? [`"verified_user_id":${JSON.stringify(conversation.userId)}`] : []),
  ]);
  return [...new Set(needles)];
}

/**
 * The REST API's stored replies (idempotency records, kept a day) that name the visitor or their conversations: the
 * erasure forgets them, so a retry with their key runs again and finds the conversation erased. Not exported.
 */
export const storedResponsesOfVisitor = {
  async find(deps: Deps, scope: { workspaceId: string; conversations: PlannedConversation[] }) {
    const keys = scope.conversations.length === 0 ? [] : await findStoredResponsesMentioning(deps, scope.workspaceId, needlesOf(scope.conversations));
    return {
      counts: { stored_responses: keys.length },
      erase: async () => void (await Promise.all(keys.map((scopedKey) => deleteStoredResponse(deps, scopedKey)))),
    };
  },
};
