import type { AgentTool } from '../skills/agent-tool';
import { KNOWLEDGE_SEARCH_CAPABILITY } from '../runs/runtime/run-sources';

/** A tool call an eval saw: what the agent asked for, and whether it was only recorded. */
export interface RecordedCall {
  name: string;
  capability: string;
  args: Record<string, unknown>;
  effect: 'read' | 'act';
  /** An acting tool's call: recorded, never performed. */
  sandboxed: boolean;
  /** The turn of the scenario it was made in. */
  turn: number;
}

/** What the model hears of an acting tool's call in an eval: it went through, so the conversation goes on as it would. */
export const SANDBOXED_ANSWER = { ok: true, sandboxed: true, detail: 'Recorded for an evaluation; nothing was performed.' } as const;

/** The name the handoff tool is recorded under (it has no skill capability). */
export const HANDOFF_CALL = 'handoff';

/**
 * The tools of one scenario: reads run as they would (a knowledge search finds the company's passages); an acting
 * tool (one that writes or sends) is recorded with its arguments and never performed: its `execute` is never called
 * and `prepare` (opening its connection) is left out, so no e-mail leaves and no record is made.
 */
/** The knowledge tool's input as the model gave it (the skill's own schema checked nothing here). */
const searchInput = (input: Record<string, unknown>) => ({
  query: typeof input.query === 'string' ? input.query.slice(0, 500) : '',
  ...(typeof input.limit === 'number' && Number.isInteger(input.limit) && input.limit >= 1 && input.limit <= 10 ? { limit: input.limit } : {}),
});

/** A knowledge search answered otherwise than by the agent's skill (a draft's own sources). */
export type KnowledgeSearch = (input: { query: string; limit?: number }) => Promise<{ results: unknown[] }>;

export class Sandbox {
  readonly calls: RecordedCall[] = [];
  turn = 0;

  constructor(private readonly knowledgeSearch?: KnowledgeSearch) {}

  tools(tools: readonly AgentTool[]): AgentTool[] {
    return tools.map((agentTool) => ({
      name: agentTool.name,
      capability: agentTool.capability,
      description: agentTool.description,
      effect: agentTool.effect,
      inputSchema: agentTool.inputSchema,
      execute: async (input, context) => {
        this.record(agentTool, input);
        if (agentTool.effect === 'act') return SANDBOXED_ANSWER;
        const searchesDraft = agentTool.capability === KNOWLEDGE_SEARCH_CAPABILITY && this.knowledgeSearch;
        return searchesDraft ? await searchesDraft(searchInput(input)) : await agentTool.execute(input, context);
      },
    }));
  }

  record(agentTool: Pick<AgentTool, 'name' | 'capability' | 'effect'>, args: Record<string, unknown>): void {
    this.calls.push({
      name: agentTool.name,
      capability: agentTool.capability,
      args,
      effect: agentTool.effect,
      sandboxed: agentTool.effect === 'act',
      turn: this.turn,
    });
  }

  callsOf(turn: number): RecordedCall[] {
    return this.calls.filter((call) => call.turn === turn);
  }
}
