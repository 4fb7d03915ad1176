import { jsonSchema, tool, type ToolSet } from 'ai';
import type { schemas } from '@service/shared';
import type { AgentTool, ToolContext } from '../../skills/agent-tool';
import { KNOWLEDGE_SEARCH_CAPABILITY } from './run-sources';
import { citationBook, type CitationBook } from './cited-answer';
import type { RetrievalGuard } from './retrieval-guard';

type Autonomy = (typeof schemas.AUTONOMY_LEVELS)[number];

export interface PendingAction {
  capability: string;
  input: Record<string, unknown>;
}

/** What the run actually did, observed at the tools themselves (the default envelope's `actions` and `files` come from here). */
export interface RunFacts {
  actions: string[];
  pending: PendingAction[];
  errors: { capability: string; message: string }[];
  files: { name: string; url: string; type: string }[];
  /** The passages the agent's knowledge searches returned, numbered as the model read them (its answer cites them by number). */
  citations: CitationBook;
}

function filesIn(result: unknown): RunFacts['files'] {
  const files = (result as { files?: unknown } | null)?.files;
  if (!Array.isArray(files)) return [];
  return files
    .filter((file): file is RunFacts['files'][number] => typeof file?.name === 'string' && typeof file?.url === 'string')
    .map(({ name, url, type }) => ({ name, url, type: String(type ?? 'application/octet-stream') }));
}

/**
 * Gives the agent's tools to the AI SDK, recording every use; `read_only` turns actions into pending approvals, and
 * `confirm` marks them `needsApproval`, so that the AI SDK stops the loop at such a call and asks (approvals.ts).
 * `beforeAction` is awaited before each action is performed, and an action it refuses (by throwing) never happens.
 * `guard` sees every result and refuses an action that retrieved content aimed (retrieval-guard.ts): neither done,
 * nor listed as pending, nor put to a person.
 */
export function recordedTools(
  tools: AgentTool[],
  context: ToolContext,
  autonomy: Autonomy,
  beforeAction: () => Promise<void>,
  guard: RetrievalGuard,
): { toolSet: ToolSet; facts: RunFacts } {
  const facts: RunFacts = { actions: [], pending: [], errors: [], files: [], citations: citationBook() };
  const toolSet: ToolSet = {};
  for (const agentTool of tools) {
    toolSet[agentTool.name] = tool({
      description: agentTool.description,
      inputSchema: jsonSchema<Record<string, unknown>>(agentTool.inputSchema),
      needsApproval: (input: Record<string, unknown>) => autonomy === 'confirm' && agentTool.effect === 'act' && !guard.refusal(input),
      execute: async (input: Record<string, unknown>) => {
        const refusal = agentTool.effect === 'act' ? guard.refusal(input) : undefined;
        if (refusal) {
          facts.errors.push({ capability: agentTool.capability, message: refusal });
          return { performed: false, error: refusal };
        }
        if (autonomy === 'read_only' && agentTool.effect === 'act') {
          facts.pending.push({ capability: agentTool.capability, input });
          return { status: 'pending_approval', detail: 'Not performed: this run has autonomy read_only; run it again with autonomy full to perform it.' };
        }
        if (agentTool.effect === 'act') {
          agentTool.prepare?.();
          await beforeAction();
        }
        try {
          const result = await agentTool.execute(input, context);
          if (!facts.actions.includes(agentTool.capability)) facts.actions.push(agentTool.capability);
          facts.files.push(...filesIn(result));
          const retrieved = agentTool.capability === KNOWLEDGE_SEARCH_CAPABILITY;
          guard.observe(result, retrieved);
          return retrieved ? facts.citations.numbered(result) : result;
        } catch (error) {
          const message = error instanceof Error ? error.message : String(error);
          facts.errors.push({ capability: agentTool.capability, message });
          return { error: message };
        }
      },
    });
  }
  return { toolSet, facts };
}

export function describePending(pending: PendingAction[]): string | null {
  if (pending.length === 0) return null;
  return `Approval needed for: ${pending.map((action) => `${action.capability} ${JSON.stringify(action.input)}`).join('; ')}. Send the command again with autonomy "full" to perform it.`;
}
