import type { DataAt } from '../api/types';

export type AgentList = DataAt<'agents/list'>['agents'];

/** Which agents may search a source: every agent (null), or the ones ticked. */
export function AgentPicker({
  agents,
  value,
  onChange,
  idPrefix,
  disabled,
}: {
  agents: AgentList;
  value: string[] | null;
  onChange: (value: string[] | null) => void;
  idPrefix: string;
  disabled?: boolean;
}) {
  return (
    <fieldset class="checks" disabled={disabled}>
      <legend>Agents that may use it</legend>
      <label class="check">
        <input
          type="checkbox"
          id={`${idPrefix}-all`}
          checked={value === null}
          onChange={(event) => onChange(event.currentTarget.checked ? null : agents.map((agent) => agent.id))}
        />
        Every agent (also agents hired later)
      </label>
      {value === null
        ? null
        : agents.map((agent) => (
            <label key={agent.id} class="check">
              <input
                type="checkbox"
                checked={value.includes(agent.id)}
                onChange={(event) => onChange(event.currentTarget.checked ? [...value, agent.id] : value.filter((id) => id !== agent.id))}
              />
              {agent.name}
            </label>
          ))}
    </fieldset>
  );
}

/** The agents a source is made available to, in words. */
export const agentsText = (agents: AgentList | undefined, ids: string[] | null): string =>
  ids === null ? 'Every agent' : ids.length === 0 ? 'No agent' : ids.map((id) => agents?.find((agent) => agent.id === id)?.name ?? id).join(', ');
