import { useState } from 'preact/hooks';
import { post } from '../api/client';
import { ActionButton, ErrorNote } from '../components';
import { href } from '../href';
import { useAction } from '../hooks';

/** "Save as scenario": the conversation or run becomes a scenario of the agent's suite (evals/scenario_create), to edit on Evals. */
export function SaveAsScenario({ agentId, from }: { agentId: string; from: { from_conversation_id: string } | { from_run_id: string } }) {
  const [saved, setSaved] = useState('');
  const save = useAction(async () => {
    const { scenario } = await post('evals/scenario_create', { agent_id: agentId, ...from });
    setSaved(scenario.name);
  });
  return (
    <span class="row">
      <ActionButton permission="manage" busy={save.busy} onClick={() => void save.run()}>
        Save as scenario
      </ActionButton>
      {saved ? (
        <span role="status" class="small">
          Saved “{saved}” to the <a href={href('agents', agentId, 'evals')}>Evals</a> suite.
        </span>
      ) : null}
      <ErrorNote error={save.error} />
    </span>
  );
}
