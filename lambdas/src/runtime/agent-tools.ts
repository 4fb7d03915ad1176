import type { StoredAgent } from '../domain/agents';
import { BUILTIN_TOOLS } from '../skills/builtin';
import type { AgentTool } from './agent-tool';

/** The tools of the skills installed on an agent. */
export function toolsOfAgent(agent: StoredAgent): AgentTool[] {
  return agent.skills.flatMap((code) => BUILTIN_TOOLS[code] ?? []);
}
