import { useState } from 'preact/hooks';
import { ApiError, post } from '../api/client';
import type { DataAt } from '../api/types';
import { ActionButton, Confirm } from '../components';
import { errorText, when } from '../format';

// Answering a run that waits for a person (autonomy confirm): its pending action, Approve and Reject with their
// confirmations, and what the answer did. Shared by "Waiting for you" and the Runs screen.

export type PendingAction = DataAt<'agents/approvals'>['runs'][number]['pending_action'];
/** A run waiting for an answer: what both lists know of it. */
export interface Waiting {
  run_id: string;
  pending_action: PendingAction;
}
type Decision = 'approve' | 'reject';

const HOUR = 3_600_000;
/** How long is left, in words: "in 23 h", "in 40 min", "expired". */
function timeLeft(iso: string): string {
  const left = Date.parse(iso) - Date.now();
  if (left <= 0) return 'expired';
  return left >= HOUR ? `in ${Math.floor(left / HOUR)} h` : `in ${Math.max(1, Math.floor(left / 60_000))} min`;
}

/** The action the agent asks to take: its capability, its reason, its arguments, until when the run waits. */
export function PendingActionView({ action }: { action: PendingAction }) {
  return (
    <dl class="pending">
      <dt>Action</dt>
      <dd class="mono">{action.capability}</dd>
      <dt>Reason</dt>
      <dd>{action.reason}</dd>
      <dt>Arguments</dt>
      <dd>
        <pre class="code">
          <code>{JSON.stringify(action.arguments, null, 2)}</code>
        </pre>
      </dd>
      <dt>Expires</dt>
      <dd>
        <time dateTime={action.expires_at}>{when(action.expires_at)}</time> ({timeLeft(action.expires_at)}); unanswered, the run ends cancelled
      </dd>
    </dl>
  );
}

/** A 409: someone answered first (another person, the API, an MCP client), the run was stopped, or it waited too long. */
function conflictText(error: ApiError): string {
  if (error.code === 'APPROVAL_EXPIRED') return `Too late: nobody answered in time. ${errorText(error)}`;
  return `Already answered elsewhere, or the run no longer waits. ${errorText(error)}`;
}

/**
 * Approve and Reject for a list of waiting runs: one pair of confirmations for the whole list (Reject takes an optional
 * note for the agent), and one line saying what the last answer did. `onAnswered` refreshes the list; it also runs
 * after a 409, since what the list shows is then out of date.
 */
export function useAnswers(onAnswered: () => void) {
  const [asking, setAsking] = useState<{ decision: Decision; run: Waiting } | null>(null);
  const [note, setNote] = useState('');
  const [busy, setBusy] = useState<string | null>(null);
  const [outcome, setOutcome] = useState<{ ok: boolean; text: string } | null>(null);

  async function answer(decision: Decision, run: Waiting, text: string) {
    setBusy(run.run_id);
    setOutcome(null);
    const capability = run.pending_action.capability;
    try {
      const body = { run_id: run.run_id, ...(text.trim() ? { note: text.trim() } : {}) };
      await post(decision === 'approve' ? 'agents/command_approve' : 'agents/command_reject', body);
      setOutcome({
        ok: true,
        text:
          decision === 'approve'
            ? `Approved ${capability} for the run ${run.run_id}: the agent goes on.`
            : `Rejected ${capability} for the run ${run.run_id}: the agent goes on without it.`,
      });
      onAnswered();
    } catch (error) {
      const conflict = error instanceof ApiError && error.status === 409;
      setOutcome({ ok: false, text: conflict ? conflictText(error) : errorText(error) });
      if (conflict) onAnswered();
    } finally {
      setBusy(null);
    }
  }

  const ask = (decision: Decision, run: Waiting) => {
    setNote('');
    setAsking({ decision, run });
  };
  const close = () => setAsking(null);

  const dialogs = (
    <>
      <Confirm
        id="approve-title"
        subject={asking?.decision === 'approve' ? asking.run : null}
        title="Approve this action?"
        body={(run) => (
          <>
            The agent uses <code>{run.pending_action.capability}</code> once, with the arguments shown, then goes on.
          </>
        )}
        confirmLabel="Approve"
        confirmVariant="primary"
        dismissLabel="Not now"
        onClose={close}
        onConfirm={(run) => void answer('approve', run, '')}
      />
      <Confirm
        id="reject-title"
        subject={asking?.decision === 'reject' ? asking.run : null}
        title="Reject this action?"
        body={(run) => (
          <>
            The agent does not use <code>{run.pending_action.capability}</code>; it is told so (with your note) and goes on without it.
          </>
        )}
        confirmLabel="Reject"
        dismissLabel="Not now"
        onClose={close}
        onConfirm={(run) => void answer('reject', run, note)}
      >
        <label for="reject-note">Note for the agent (optional)</label>
        <textarea id="reject-note" rows={3} maxLength={1000} value={note} onInput={(event) => setNote(event.currentTarget.value)} />
      </Confirm>
    </>
  );

  const feedback = outcome ? (
    outcome.ok ? (
      <p class="note" role="status">
        {outcome.text}
      </p>
    ) : (
      <p class="error" role="alert">
        {outcome.text}
      </p>
    )
  ) : null;

  return { ask, busy, dialogs, feedback };
}

export type Answers = ReturnType<typeof useAnswers>;

/** Approve and Reject for one waiting run; disabled (with the role note's reason) for a role that may not command. */
export function AnswerButtons({ run, answers }: { run: Waiting; answers: Answers }) {
  const capability = run.pending_action.capability;
  const busy = answers.busy === run.run_id;
  return (
    <div class="row">
      <ActionButton
        permission="command"
        variant="primary"
        busy={busy}
        label={`Approve ${capability} for the run ${run.run_id}`}
        onClick={() => answers.ask('approve', run)}
      >
        Approve
      </ActionButton>
      <ActionButton
        permission="command"
        variant="danger"
        busy={busy}
        label={`Reject ${capability} for the run ${run.run_id}`}
        onClick={() => answers.ask('reject', run)}
      >
        Reject
      </ActionButton>
    </div>
  );
}
