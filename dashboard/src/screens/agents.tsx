import { useState } from 'preact/hooks';
import { get, post } from '../api/client';
import { href } from '../href';
import { AGENT_SCREENS, isAgentScreen } from '../agent-screens';
import { ActionButton, ActionForm, ErrorNote, Loading, RoleNote, Screen } from '../components';
import { useAction, useLoad } from '../hooks';

/** The agents; `params[0]` names an agent's screen the address asked for without naming the agent (router.ts). */
export default function Agents({ params }: { params: string[] }) {
  const wanted = isAgentScreen(params[0]) ? params[0] : undefined;
  const agents = useLoad(() => get('agents/list'), []);
  const presets = useLoad(() => get('agents/presets'), []);
  const waiting = useLoad(() => get('agents/approvals', { limit: 100 }), []);
  const waitingCount = waiting.data?.runs.length ?? 0;
  const [preset, setPreset] = useState('');
  const [name, setName] = useState('');
  const hire = useAction(async () => {
    const chosen = preset || presets.data?.presets[0]?.id;
    if (!chosen) return;
    await post('agents/create', { preset: chosen, ...(name.trim() ? { name: name.trim() } : {}) });
    setName('');
    agents.reload();
  });
  return (
    <Screen title="Agents" intro="Your AI agents: their settings, the widget embed, runs and conversations.">
      {wanted ? (
        <p class="note" role="status">
          The {AGENT_SCREENS[wanted]} screen belongs to one agent, and this address names none. Choose the agent below.
        </p>
      ) : null}
      <RoleNote permission="manage" action="hiring an agent" />
      {waitingCount > 0 ? (
        <p class="note">
          {waitingCount === 1 ? 'A run waits' : `${waitingCount}${waitingCount === 100 ? '+' : ''} runs wait`} for a person to approve an action:{' '}
          <a href={href('approvals')}>Waiting for you</a>
        </p>
      ) : null}
      {agents.loading && !agents.data ? <Loading what="agents" /> : null}
      <ErrorNote error={agents.error ?? presets.error} />
      {agents.data && agents.data.agents.length === 0 ? <p class="muted">No agents yet: hire one below.</p> : null}
      <ul class="cards">
        {agents.data?.agents.map((agent) => (
          <li class="card" key={agent.id}>
            <h2>{agent.name}</h2>
            <p class="muted">{agent.role}</p>
            <p class="mono small">{agent.id}</p>
            <ul class="links" aria-label={`${agent.name}`}>
              {Object.entries(AGENT_SCREENS).map(([screen, label]) => (
                <li key={screen}>
                  <a href={href('agents', agent.id, screen)}>{label}</a>
                </li>
              ))}
            </ul>
          </li>
        ))}
      </ul>
      <ActionForm class="panel" onSubmit={hire.run}>
        <h2>Hire an agent</h2>
        <label for="preset">Preset</label>
        <select id="preset" value={preset || presets.data?.presets[0]?.id} onChange={(event) => setPreset(event.currentTarget.value)}>
          {presets.data?.presets.map((candidate) => (
            <option key={candidate.id} value={candidate.id}>
              {candidate.name}: {candidate.role} ({candidate.skills.join(', ')})
            </option>
          ))}
        </select>
        <label for="hire-name">Name (optional)</label>
        <input id="hire-name" value={name} maxLength={80} onInput={(event) => setName(event.currentTarget.value)} />
        <ActionButton type="submit" permission="manage" variant="primary" busy={hire.busy}>
          Hire
        </ActionButton>
        <ErrorNote error={hire.error} />
      </ActionForm>
    </Screen>
  );
}
