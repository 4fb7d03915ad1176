import type { Deps } from '../../infra/deps';
import { forgetComments } from './record';

/** The comments visitors wrote with their ratings of a conversation's answers: erased with the visitor's data (visitors/owners.ts), the ratings kept. */
export const ratingCommentsOfVisitor = {
  find: async (deps: Deps, scope: { conversations: { conversationId: string; agentId: string }[] }) => ({
    counts: {},
    erase: async () =>
      void (await Promise.all(scope.conversations.map((conversation) => forgetComments(deps, conversation.agentId, conversation.conversationId)))),
  }),
};
