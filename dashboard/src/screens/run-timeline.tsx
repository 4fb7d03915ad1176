import { useState } from 'preact/hooks';
import type { DataAt } from '../api/types';
import { get } from '../api/client';
import { ErrorNote, Loading } from '../components';
import { useLoad } from '../hooks';
import { when } from '../format';

type Step = DataAt<'agents/command_status'>['steps'][number];

function StepLine({ step }: { step: Step }) {
  if (step.type === 'status') {
    return (
      <>
        <strong>Status {step.status}</strong> <span class="muted small">{when(step.at)}</span>
        {step.error ? <p class="error">{step.error}</p> : null}
      </>
    );
  }
  if (step.type === 'text') {
    return (
      <>
        <strong>Model turn</strong> <span class="muted small">{step.usage.input_tokens + step.usage.output_tokens} tokens</span>
        {step.text ? <p>{step.text}</p> : null}
      </>
    );
  }
  if (step.type === 'approval_requested') {
    return (
      <>
        <strong>
          Waiting for approval: <span class="mono">{step.capability}</span>
        </strong>{' '}
        <span class="muted small">until {when(step.expires_at)}</span>
        <p>{step.reason}</p>
        <pre class="code">
          <code>{JSON.stringify(step.arguments, null, 2)}</code>
        </pre>
      </>
    );
  }
  if (step.type === 'link_removed') {
    return (
      <>
        <strong>Link removed from the answer</strong> <span class="muted small">{when(step.at)}</span>
        <p class="mono">{step.url}</p>
      </>
    );
  }
  if (step.type === 'approval_answered') {
    return (
      <>
        <strong>{step.decision === 'approved' ? 'Approved' : 'Rejected'}</strong> <span class="muted small">{when(step.at)}</span>
        {step.note ? <p>{step.note}</p> : null}
      </>
    );
  }
  return (
    <>
      <strong>
        Tool call <span class="mono">{step.capability}</span>
      </strong>{' '}
      <span class="muted small">{step.duration_ms} ms</span>
      {step.error ? <p class="error">{step.error}</p> : null}
      <details>
        <summary>Arguments and result</summary>
        <pre class="code">
          <code>{JSON.stringify({ arguments: step.arguments, result: step.result ?? null }, null, 2)}</code>
        </pre>
      </details>
    </>
  );
}

function Timeline({ runId, runStatus }: { runId: string; runStatus: string }) {
  // Read again as the run moves on (the Runs screen follows an unfinished run's status).
  const status = useLoad(() => get('agents/command_status', { run_id: runId, steps_limit: 200 }), [runId, runStatus]);
  return (
    <>
      {status.loading && !status.data ? <Loading what="steps" /> : null}
      <ErrorNote error={status.error} />
      <ol class="timeline">
        {status.data?.steps.map((step) => (
          <li key={step.seq} class={`step ${step.type}`}>
            <StepLine step={step} />
          </li>
        ))}
      </ol>
    </>
  );
}

/** A run's steps as a timeline: status changes, model turns, tool calls with their arguments and results; loaded when opened. */
export function RunSteps({ runId, runStatus }: { runId: string; runStatus: string }) {
  const [open, setOpen] = useState(false);
  return (
    <details class="steps" onToggle={(event) => setOpen(event.currentTarget.open)}>
      <summary>Steps</summary>
      {open ? <Timeline runId={runId} runStatus={runStatus} /> : null}
    </details>
  );
}
