import type { Deps } from '../../infra/deps';
import { normalisedQuestion } from './unanswered';
import { deleteUnanswered, queryUnanswered } from './unanswered-repository';

/**
 * The unanswered questions a visitor asked (visitors/owners.ts): a question is kept as the first wording asked, so it
 * is theirs when it matches one of their messages to that agent. Erased with the visitor's data, not exported.
 */
export const unansweredOfVisitor = {
  async find(deps: Deps, scope: { workspaceId: string; messages: { agentId: string; text: string }[] }) {
    if (scope.messages.length === 0) return { counts: { unanswered_questions: 0 }, erase: async () => undefined };
    const asked = new Set(scope.messages.map((message) => `${message.agentId}\n${normalisedQuestion(message.text)}`));
    const questions = (await queryUnanswered(deps, scope.workspaceId)).filter((question) =>
      asked.has(`${question.agentId}\n${normalisedQuestion(question.text)}`),
    );
    return {
      counts: { unanswered_questions: questions.length },
      erase: async () => void (await Promise.all(questions.map((question) => deleteUnanswered(deps, question.workspaceId, question.id)))),
    };
  },
};
