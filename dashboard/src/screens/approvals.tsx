import { useEffect } from 'preact/hooks';
import { get } from '../api/client';
import { ErrorNote, Loading, RoleNote, Screen } from '../components';
import { useLoad } from '../hooks';
import { when } from '../format';
import { href } from '../href';
import { AnswerButtons, PendingActionView, useAnswers } from './approval';

/** New waiting runs show up while the screen is open (and answers given elsewhere take theirs away). */
const POLL_MS = 5000;

/** "Waiting for you": the workspace's runs waiting for a person to approve an action, oldest first. */
export default function Approvals() {
  const waiting = useLoad(() => get('agents/approvals', { limit: 100 }), []);
  const agents = useLoad(() => get('agents/list'), []);
  const answers = useAnswers(waiting.reload);
  useEffect(() => {
    if (waiting.loading) return;
    const timer = setTimeout(waiting.reload, POLL_MS);
    return () => clearTimeout(timer);
  }, [waiting.data, waiting.error, waiting.loading]);
  const nameOf = (agentId: string) => agents.data?.agents.find((agent) => agent.id === agentId)?.name ?? agentId;
  const runs = waiting.data?.runs;
  return (
    <Screen
      title="Waiting for you"
      intro="Runs given with autonomy confirm stop before any action that changes something, until someone approves or rejects it."
    >
      <RoleNote permission="command" action="approving or rejecting an action" />
      {waiting.loading && !waiting.data ? <Loading what="the runs waiting for approval" /> : null}
      <ErrorNote error={waiting.error ?? agents.error} />
      {answers.feedback}
      {runs && runs.length === 0 ? <p class="muted">Nothing is waiting for you.</p> : null}
      <ol class="runs waiting" aria-label="Runs waiting for approval">
        {runs?.map((run) => (
          <li class="card run" key={run.run_id} data-run-id={run.run_id}>
            <h2>
              {nameOf(run.agent_id)} asks to use <span class="mono">{run.pending_action.capability}</span>
            </h2>
            <p class="instruction">{run.instruction}</p>
            <PendingActionView action={run.pending_action} />
            <AnswerButtons run={run} answers={answers} />
            <p class="muted small">
              <span class="mono">{run.run_id}</span> · given {when(run.created_at)} ·{' '}
              <a href={href('agents', run.agent_id, 'runs')}>Runs of {nameOf(run.agent_id)}</a>
            </p>
          </li>
        ))}
      </ol>
      {answers.dialogs}
    </Screen>
  );
}
