import { post } from '../api/client';
import type { DataAt } from '../api/types';
import { ActionButton, DataTable, ErrorNote } from '../components';
import { useAction } from '../hooks';
import { when } from '../format';
import { agentsText, type AgentList } from './knowledge-agents';

export type UnansweredQuestion = DataAt<'knowledge/unanswered_list'>['questions'][number];

/**
 * Questions visitors asked that the knowledge could not answer, most asked first: "Write an answer" opens the answer
 * form with the question filled in (once saved, the question leaves this list); "Dismiss" drops it unanswered.
 */
export function UnansweredQuestions({
  questions,
  agents,
  onAnswer,
  onDismissed,
}: {
  questions: UnansweredQuestion[];
  agents: AgentList;
  onAnswer: (question: UnansweredQuestion) => void;
  onDismissed: () => void;
}) {
  const dismiss = useAction(async (id: string) => {
    await post('knowledge/unanswered_dismiss', { question_id: id });
    onDismissed();
  });
  return (
    <section class="panel" aria-labelledby="unanswered-title">
      <h2 id="unanswered-title">Unanswered questions</h2>
      <p class="muted small">
        What visitors asked that your knowledge had no answer for. Kept 90 days after the last time it was asked; who asked is not kept.
      </p>
      <ErrorNote error={dismiss.error} />
      <DataTable
        caption="Unanswered questions"
        columns={['Question', 'Asked', 'Last asked', 'Agent', '']}
        empty={questions.length === 0 && 'No unanswered questions.'}
      >
        {questions.map((question) => (
          <tr key={question.id} data-question-id={question.id}>
            <td>
              <span lang={question.language === 'und' ? undefined : question.language}>{question.text}</span>
            </td>
            <td data-count="asked">{question.count === 1 ? 'once' : `${question.count} times`}</td>
            <td>{when(question.last_asked_at)}</td>
            <td>{agentsText(agents, [question.agent_id])}</td>
            <td class="row">
              <ActionButton permission="knowledge:manage" variant="primary" label={`Write an answer to ${question.text}`} onClick={() => onAnswer(question)}>
                Write an answer
              </ActionButton>
              <ActionButton permission="knowledge:manage" label={`Dismiss ${question.text}`} onClick={() => void dismiss.run(question.id)}>
                Dismiss
              </ActionButton>
            </td>
          </tr>
        ))}
      </DataTable>
    </section>
  );
}
