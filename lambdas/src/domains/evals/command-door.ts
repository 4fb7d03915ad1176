import type { LanguageModel, ToolSet } from 'ai';
import type { StoredRun } from '../runs/runs';
import { executeRun } from '../runs/runtime/execute-run';
import type { RunStopping } from '../runs/runtime/run-cancellation';
import { runLanguage } from '../runs/runtime/run-language';
import { toolsOfAgent } from '../runs/runtime/agent-tools';
import type { ScenarioDoor } from './doors';

/** An eval's command is never asked to stop: it ends with its model loop (the run executor's own time limit). */
const NEVER_STOPPING: RunStopping = {
  signal: new AbortController().signal,
  checkpoint: async () => undefined,
  looked: () => undefined,
  guard: (tools: ToolSet) => tools,
  guardModel: (model: LanguageModel) => model,
  recordStep: () => undefined,
  requested: false,
  progress: { resultText: '', usage: { inputTokens: 0, outputTokens: 0 } },
};

/**
 * The command door: each turn is an agents/command run as the API key's (role `admin`, autonomy `full`) played
 * through the run executor itself, its acting tools sandboxed. The run is not stored (no runs item, no webhook, no
 * usage of its own, no unanswered question noted for the agent); its steps are kept under the play id.
 */
export function commandDoor(model: LanguageModel): ScenarioDoor {
  return async (deps, { agent, scenario, turn, sandbox, playId, schema }) => {
    const instruction = scenario.turns[turn]!.user;
    const run: StoredRun = {
      runId: `${playId}_${turn}`,
      workspaceId: agent.workspaceId,
      agentId: agent.id,
      status: 'running',
      autonomy: 'full',
      instruction,
      ...(scenario.identity?.data ? { data: scenario.identity.data } : {}),
      ...(schema ? { schema } : {}),
      usage: { inputTokens: 0, outputTokens: 0 },
      createdAt: deps.now().toISOString(),
    };
    const language = scenario.locale ?? (await runLanguage(agent, run));
    const toolbox = await toolsOfAgent(deps, agent, { runId: run.runId, language });
    try {
      const outcome = await executeRun({
        deps,
        run,
        agent,
        language,
        model,
        tools: sandbox.tools(toolbox.tools),
        held: { signal: new AbortController().signal, beforeAction: async () => undefined },
        stopping: NEVER_STOPPING,
        rehearsal: true,
      });
      if (outcome.kind !== 'finished') throw new Error('an eval command cannot wait for approval');
      return { answer: outcome.resultText, sources: outcome.sources, output: { value: outcome.output, error: outcome.outputError }, usage: outcome.usage };
    } finally {
      await toolbox.close();
    }
  };
}
