import type { Deps } from '../../../infra/deps';
import type { StoredAgent } from '../../agents/agents';
import { API_COMMAND_ROLE } from '../../skills/roles';
import type { Grant } from '../../skills/grants';
import { skillToolbox, type Toolbox } from '../../skills/skill-toolbox';

/**
 * The tools of the skills installed on an agent, for one agents/command run, in the run's `language`. The run acts
 * for `role`: the commanding member's role (a session), or, for an API key, the company's automation, `admin`
 * (API_COMMAND_ROLE); only the tools granted to that role are offered (`grants`: the workspace's, being read).
 */
export function toolsOfAgent(
  deps: Deps,
  agent: StoredAgent,
  run: { runId: string; language: string; role?: string | undefined },
  grants?: Promise<Grant[]>,
): Promise<Toolbox> {
  return skillToolbox(deps, { agent, runId: run.runId, roles: [run.role ?? API_COMMAND_ROLE], language: run.language }, grants);
}
