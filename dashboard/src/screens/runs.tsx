import { useEffect, useState } from 'preact/hooks';
import { get, post } from '../api/client';
import { ActionButton, ActionForm, Confirm, ErrorNote, Loading, RoleNote, Screen } from '../components';
import { useAction, useLoad } from '../hooks';
import { when } from '../format';
import { AgentTabs } from './agent-tabs';
import { SaveAsScenario } from './save-as-scenario';
import { RunSteps } from './run-timeline';
import { LiveText } from './live-text';
import { AnswerButtons, PendingActionView, useAnswers } from './approval';

const POLL_MS = 1000;
/** While the only unfinished runs wait for a person, slower: the answer may be hours away. */
const WAITING_POLL_MS = 5000;

type Autonomy = 'read_only' | 'confirm' | 'full';
const AUTONOMY: [Autonomy, string][] = [
  ['read_only', 'Propose only (read_only): the agent reads and proposes actions, takes none'],
  ['confirm', 'Ask first (confirm): the agent waits for an approval before each action that changes something'],
  ['full', 'Act (full): the agent takes the actions it decides on'],
];
const STOPPABLE = ['queued', 'running', 'requires_action'];

export default function Runs({ params }: { params: string[] }) {
  const agentId = params[0]!;
  const runs = useLoad(() => get('agents/runs', { agent_id: agentId, limit: 20 }), [agentId]);
  const [instruction, setInstruction] = useState('');
  const [autonomy, setAutonomy] = useState<Autonomy>('read_only');
  const command = useAction(async () => {
    await post('agents/command', { agent_id: agentId, instruction: instruction.trim(), autonomy });
    setInstruction('');
    runs.reload();
  });
  const [stopping, setStopping] = useState<string | null>(null);
  // Answers once the run has stopped (its runner acknowledges within a heartbeat), with what it produced so far.
  const stop = useAction(async (runId: string) => {
    await post('agents/command_cancel', { run_id: runId });
    runs.reload();
  });
  const answers = useAnswers(runs.reload);
  const moving = runs.data?.runs.some((run) => run.status === 'queued' || run.status === 'running');
  const unfinished = moving || runs.data?.runs.some((run) => run.status === 'requires_action');
  // Follow unfinished runs (a waiting one too: it may be answered elsewhere) until they settle.
  useEffect(() => {
    if (!unfinished) return;
    const timer = setTimeout(runs.reload, moving ? POLL_MS : WAITING_POLL_MS);
    return () => clearTimeout(timer);
  }, [runs.data]);
  return (
    <Screen title="Runs" intro="What the agent was told to do, what it did, and what it cost.">
      <AgentTabs agentId={agentId} current="runs" />
      <RoleNote permission="command" action="giving a command" />
      <ActionForm class="panel" onSubmit={() => instruction.trim() && command.run()}>
        <label for="instruction">Command</label>
        <textarea id="instruction" rows={3} maxLength={10000} required value={instruction} onInput={(event) => setInstruction(event.currentTarget.value)} />
        <fieldset class="checks">
          <legend>Autonomy</legend>
          {AUTONOMY.map(([value, label]) => (
            <label class="check" key={value}>
              <input type="radio" name="autonomy" value={value} checked={autonomy === value} onChange={() => setAutonomy(value)} />
              {label}
            </label>
          ))}
        </fieldset>
        <ActionButton type="submit" permission="command" variant="primary" busy={command.busy}>
          Give the command
        </ActionButton>
        <ErrorNote error={command.error} />
      </ActionForm>
      {runs.loading && !runs.data ? <Loading what="runs" /> : null}
      <ErrorNote error={runs.error ?? stop.error} />
      {answers.feedback}
      {runs.data && runs.data.runs.length === 0 ? <p class="muted">No runs yet.</p> : null}
      <ol class="runs">
        {runs.data?.runs.map((run) => (
          <li class="card run" key={run.run_id} data-status={run.status}>
            <p class="row spread">
              <span class={`badge ${run.status}`}>{run.status}</span>
              <span class="muted small">{when(run.created_at)}</span>
            </p>
            {STOPPABLE.includes(run.status) ? (
              <ActionButton permission="command" variant="danger" label={`Stop the run ${run.run_id}`} busy={stop.busy} onClick={() => setStopping(run.run_id)}>
                Stop
              </ActionButton>
            ) : null}
            <p class="instruction">{run.instruction}</p>
            {run.status === 'running' ? <LiveText runId={run.run_id} /> : null}
            {run.status === 'requires_action' && run.pending_action ? (
              <div class="waiting-action">
                <h2>Waiting for your approval</h2>
                <PendingActionView action={run.pending_action} />
                <AnswerButtons run={{ run_id: run.run_id, pending_action: run.pending_action }} answers={answers} />
              </div>
            ) : null}
            {run.result_text ? (
              <div class="result">
                <h2>Result</h2>
                <p>{run.result_text}</p>
              </div>
            ) : null}
            {run.output ? (
              <details>
                <summary>Output</summary>
                <pre class="code">
                  <code>{JSON.stringify(run.output, null, 2)}</code>
                </pre>
              </details>
            ) : null}
            <RunSteps runId={run.run_id} runStatus={run.status} />
            {run.error || run.output_error ? <p class="error">{run.error ?? run.output_error}</p> : null}
            {run.status === 'completed' ? <SaveAsScenario agentId={agentId} from={{ from_run_id: run.run_id }} /> : null}
            <p class="muted small">
              <span class="mono">{run.run_id}</span> · {run.autonomy} · {run.usage.input_tokens + run.usage.output_tokens} tokens ({run.usage.input_tokens} in,{' '}
              {run.usage.output_tokens} out)
            </p>
          </li>
        ))}
      </ol>
      <Confirm
        subject={stopping}
        title="Stop this run?"
        body={() => 'The agent starts no further step (an action waiting for approval is never taken); the run ends cancelled with what it has done so far.'}
        confirmLabel="Stop the run"
        dismissLabel="Keep running"
        onClose={() => setStopping(null)}
        onConfirm={(runId) => void stop.run(runId)}
      />
      {answers.dialogs}
    </Screen>
  );
}
