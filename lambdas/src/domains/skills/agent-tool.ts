import type { JSONSchema7 } from 'ai';
import type { Deps } from '../../infra/deps';
import type { StoredAgent } from '../agents/agents';

/** Who a tool acts for: the run's workspace and agent (never taken from the tool's arguments). */
export interface ToolContext {
  deps: Deps;
  workspaceId: string;
  agent: StoredAgent;
  runId: string;
}

/**
 * A tool an agent may call. `effect: 'act'` marks a real-world action (it writes or sends); with autonomy
 * `read_only` such a tool is not executed and the run asks for approval instead.
 */
export interface AgentTool {
  /** Model-facing name `code__action`. */
  name: string;
  /** Capability `code.action`, what `actions` reports and grants name. */
  capability: string;
  description: string;
  effect: 'read' | 'act';
  /** JSON Schema of the input, as the skill lists it over MCP. */
  inputSchema: JSONSchema7;
  /** Starts what a call needs that is not the action itself (a connection, a credential), while the action is being recorded. */
  prepare?(): void;
  execute(input: Record<string, unknown>, context: ToolContext): Promise<unknown>;
}
