import type { Deps } from '../../../infra/deps';
import type { StoredAgent } from '../../agents/agents';
import { API_COMMAND_ROLE } from '../../skills/roles';
import { skillToolbox, type Toolbox } from '../../skills/skill-toolbox';

/**
 * The tools of the skills installed on an agent, for one agents/command run. The run acts as the API key's
 * company automation, role `admin` (API_COMMAND_ROLE), in the agent's language.
 */
export function toolsOfAgent(deps: Deps, agent: StoredAgent, runId: string): Promise<Toolbox> {
  return skillToolbox(deps, { agent, runId, roles: [API_COMMAND_ROLE], language: agent.locale });
}
