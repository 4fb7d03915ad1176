import { useEffect, useState } from 'preact/hooks';
import { get, post } from '../api/client';
import type { BodyAt, DataAt } from '../api/types';
import { ActionButton, ActionForm, DataTable, ErrorNote, Loading, RoleNote, Screen } from '../components';
import { useAction, useLoad, useRefreshWhile } from '../hooks';
import { AgentTabs } from './agent-tabs';

type Scenario = DataAt<'evals/scenario_list'>['scenarios'][number];
type RunStatus = DataAt<'evals/run_status'>;

const EXAMPLE = {
  name: 'Refund time',
  door: 'widget',
  turns: [{ user: 'How long do refunds take?', expect: [{ answer_contains: '30 days' }, { no_action: true }] }],
};

/** The editable part of a scenario, as JSON (its id and agent stay). */
const editable = ({ name, door, page, locale, identity, turns }: Scenario) => JSON.stringify({ name, door, page, locale, identity, turns }, null, 2);

/** The JSON the person wrote, or the parse error they see before anything is sent. */
function parsed(text: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new Error(`The scenario is not valid JSON: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new Error('The scenario is a JSON object: {"name", "turns": [{"user", "expect": […]}]}');
  return value as Record<string, unknown>;
}

/** An agent's Evals: its draft (persona) and Publish, its scenarios as JSON, eval runs on the live agent or the draft, their failures and the diff. */
export default function Evals({ params }: { params: string[] }) {
  const agentId = params[0]!;
  const scenarios = useLoad(() => get('evals/scenario_list', { agent_id: agentId }), [agentId]);
  const [editing, setEditing] = useState<string | null>(null);
  const [json, setJson] = useState(JSON.stringify(EXAMPLE, null, 2));
  const [runId, setRunId] = useState<string | null>(null);
  const status = useLoad(() => (runId ? get('evals/run_status', { eval_run_id: runId }) : Promise.resolve(undefined)), [runId]);
  const running = status.data?.eval_run.status === 'queued' || status.data?.eval_run.status === 'running';
  useRefreshWhile(running, status.reload, 1000);

  const saveScenario = useAction(async () => {
    const scenario = parsed(json);
    // Checked by the API, whose validation error (with its field) is shown beside the form.
    if (editing) await post('evals/scenario_update', { ...scenario, scenario_id: editing } as BodyAt<'evals/scenario_update'>);
    else await post('evals/scenario_create', { ...scenario, agent_id: agentId } as BodyAt<'evals/scenario_create'>);
    setEditing(null);
    setJson(JSON.stringify(EXAMPLE, null, 2));
    scenarios.reload();
  });
  const remove = useAction(async (scenarioId: string) => {
    await post('evals/scenario_delete', { scenario_id: scenarioId });
    scenarios.reload();
  });
  const run = useAction(async (draft: boolean) => {
    const started = await post('evals/run', { agent_id: agentId, draft });
    setRunId(started.eval_run.eval_run_id);
  });

  return (
    <Screen title="Evals" intro="Scenarios the agent is tested against, played on the live agent or its draft. Acting tools are recorded, never performed.">
      <AgentTabs agentId={agentId} current="evals" />
      <RoleNote permission="manage" action="changing scenarios, running evals and publishing" />
      <Draft agentId={agentId} />
      <section class="panel" aria-labelledby="scenarios-title">
        <h2 id="scenarios-title">Scenarios</h2>
        {scenarios.loading && !scenarios.data ? <Loading what="scenarios" /> : null}
        <ErrorNote error={scenarios.error ?? remove.error} />
        <DataTable
          caption="Scenarios"
          columns={['Name', 'Door', 'Turns', '']}
          empty={scenarios.data?.scenarios.length === 0 ? 'No scenarios yet: write one below, or save one from a conversation or a run.' : false}
        >
          {scenarios.data?.scenarios.map((scenario) => (
            <tr key={scenario.id}>
              <td>{scenario.name}</td>
              <td>{scenario.door}</td>
              <td>{scenario.turns.length}</td>
              <td class="row">
                <ActionButton permission="manage" label={`Edit ${scenario.name}`} onClick={() => (setEditing(scenario.id), setJson(editable(scenario)))}>
                  Edit
                </ActionButton>
                <ActionButton
                  permission="manage"
                  variant="danger"
                  label={`Delete ${scenario.name}`}
                  busy={remove.busy}
                  onClick={() => void remove.run(scenario.id)}
                >
                  Delete
                </ActionButton>
              </td>
            </tr>
          ))}
        </DataTable>
        <ActionForm onSubmit={saveScenario.run}>
          <label for="scenario-json">{editing ? 'Edit the scenario (JSON)' : 'New scenario (JSON)'}</label>
          <textarea id="scenario-json" class="mono" rows={10} value={json} onInput={(event) => setJson(event.currentTarget.value)} />
          <span class="row">
            <ActionButton type="submit" permission="manage" variant="primary" busy={saveScenario.busy}>
              Save scenario
            </ActionButton>
            {editing ? (
              <ActionButton permission="manage" onClick={() => (setEditing(null), setJson(JSON.stringify(EXAMPLE, null, 2)))}>
                Cancel
              </ActionButton>
            ) : null}
          </span>
          <ErrorNote error={saveScenario.error} />
        </ActionForm>
      </section>
      <section class="panel" aria-labelledby="runs-title">
        <h2 id="runs-title">Run the suite</h2>
        <span class="row">
          <ActionButton permission="manage" variant="primary" busy={run.busy} onClick={() => void run.run(false)}>
            Run on the live agent
          </ActionButton>
          <ActionButton permission="manage" busy={run.busy} onClick={() => void run.run(true)}>
            Run on the draft
          </ActionButton>
        </span>
        <ErrorNote error={run.error ?? status.error} />
        {status.data ? <Results status={status.data} /> : null}
      </section>
    </Screen>
  );
}

function Results({ status }: { status: RunStatus }) {
  const { eval_run: run, results, diff } = status;
  if (run.status === 'queued' || run.status === 'running') return <p role="status">Playing {run.scenarios} scenarios…</p>;
  if (run.status === 'failed') return <p class="error">The eval run failed: {run.error}</p>;
  const names = new Map(results.map((result) => [result.scenario_id, result.name]));
  const named = (ids: string[]) => ids.map((id) => names.get(id) ?? id).join(', ');
  return (
    <div class="eval-results">
      <p role="status">
        {run.draft ? 'Draft' : 'Live agent'}: pass rate {Math.round((run.pass_rate ?? 0) * 100)}% ({run.passed} of {run.passed + run.failed} passed)
      </p>
      {diff?.previous_eval_run_id ? (
        <p>
          Since the previous run: {diff.fixed.length} fixed{diff.fixed.length ? ` (${named(diff.fixed)})` : ''}, {diff.broke.length} broke
          {diff.broke.length ? ` (${named(diff.broke)})` : ''}, {diff.still_failing.length} still failing
        </p>
      ) : null}
      <ul class="failures" aria-label="Failures">
        {results
          .filter((result) => !result.passed)
          .map((result) => (
            <li key={result.scenario_id} class="card">
              <h3>{result.name}</h3>
              <ul>
                {(result.error ? [result.error] : result.expectations.filter((each) => each.outcome === 'failed').map((each) => each.reason ?? '')).map(
                  (reason) => (
                    <li key={reason}>{reason}</li>
                  ),
                )}
              </ul>
              <details>
                <summary>Transcript</summary>
                <ol>
                  {result.transcript.map((entry, index) => (
                    <li key={index}>
                      <strong>{entry.role}</strong>{' '}
                      {entry.tool
                        ? `${entry.tool.name} ${JSON.stringify(entry.tool.args)}${entry.tool.sandboxed ? ' (recorded, not performed)' : ''}`
                        : entry.text}
                    </li>
                  ))}
                </ol>
              </details>
            </li>
          ))}
      </ul>
    </div>
  );
}

/** The draft's persona (agents/draft_update) and Publish (agents/draft_publish, optionally only on a passing suite). */
function Draft({ agentId }: { agentId: string }) {
  const agent = useLoad(() => get('agents/get', { agent_id: agentId }), [agentId]);
  const draft = useLoad(() => get('agents/draft_get', { agent_id: agentId }).catch(() => undefined), [agentId]);
  const [persona, setPersona] = useState<string | null>(null);
  const [requirePass, setRequirePass] = useState(true);
  const [notice, setNotice] = useState('');
  useEffect(() => setPersona(null), [agentId]);
  const drafted = (draft.data?.draft.changes as { persona?: string } | undefined)?.persona;
  const shown = persona ?? drafted ?? agent.data?.agent.persona ?? '';
  const save = useAction(async () => {
    await post('agents/draft_update', { agent_id: agentId, persona: shown });
    setNotice('Draft saved; the live agent is unchanged.');
    draft.reload();
  });
  const publish = useAction(async () => {
    await post('agents/draft_publish', { agent_id: agentId, require_suite_pass: requirePass });
    setNotice('Published: the draft is live.');
    setPersona(null);
    draft.reload();
    agent.reload();
  });
  return (
    <ActionForm class="panel" onSubmit={save.run}>
      <h2>Draft</h2>
      <label for="draft-persona">Persona (draft)</label>
      <textarea id="draft-persona" rows={4} value={shown} onInput={(event) => setPersona(event.currentTarget.value)} />
      <label class="check">
        <input type="checkbox" checked={requirePass} onChange={(event) => setRequirePass(event.currentTarget.checked)} />
        Publish only when the latest eval run of the draft passed
      </label>
      <span class="row">
        <ActionButton type="submit" permission="manage" variant="primary" busy={save.busy}>
          Save draft
        </ActionButton>
        <ActionButton permission="manage" busy={publish.busy} onClick={() => void publish.run()}>
          Publish
        </ActionButton>
      </span>
      {notice ? (
        <p class="note" role="status">
          {notice}
        </p>
      ) : null}
      <ErrorNote error={save.error ?? publish.error} />
    </ActionForm>
  );
}
