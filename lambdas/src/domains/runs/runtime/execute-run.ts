import { checkOutputSchema } from '@service/shared';
import { generateText, Output, stepCountIs, type LanguageModel, type LanguageModelUsage, type ModelMessage } from 'ai';
import type { z } from 'zod';
import type { Deps } from '../../../infra/deps';
import type { StoredAgent } from '../../agents/agents';
import type { StoredRun } from '../runs';
import type { AgentTool } from './agent-tool';
import type { HeldRun } from './run-lease';
import type { RunStopping } from './run-cancellation';
import { ENVELOPE_FROM_MODEL, withNullsFilled, zodFromOutputSchema } from './output-shape';
import { runSystemPrompt } from './prompt';
import { describePending, recordedTools, type RunFacts } from './tool-recorder';
import { openStepLog } from '../steps/step-log';
import { turnRecorder } from '../steps/turn-steps';

export interface RunOutcome {
  resultText: string;
  output: Record<string, unknown> | null;
  outputError: string | null;
  usage: { inputTokens: number; outputTokens: number };
  /** How many steps the run recorded (see steps/step-log.ts). */
  stepsCount: number;
}

const MAX_STEPS = 8;
const RUN_TIMEOUT_MS = 120_000;

const tokens = (usage: LanguageModelUsage) => ({ inputTokens: usage.inputTokens ?? 0, outputTokens: usage.outputTokens ?? 0 });
const firstSentence = (text: string) => text.match(/^[\s\S]*?[.!?](?=\s|$)/)?.[0]?.trim() ?? text.trim();

/** Asks the model for the structured answer over the finished conversation; a mismatch is an error message, not a failed run. */
async function shape<T>(model: LanguageModel, system: string, messages: ModelMessage[], schema: z.ZodType<T>, held: AbortSignal) {
  held.throwIfAborted();
  try {
    const result = await generateText({ model, system, messages, output: Output.object({ schema }), abortSignal: AbortSignal.any([held, AbortSignal.timeout(RUN_TIMEOUT_MS)]) });
    return { value: result.output as T, usage: tokens(result.usage) };
  } catch (error) {
    held.throwIfAborted();
    return { error: `The answer could not be shaped to the schema: ${error instanceof Error ? error.message : String(error)}`, usage: { inputTokens: 0, outputTokens: 0 } };
  }
}

function defaultEnvelope(facts: RunFacts, resultText: string, fromModel?: z.infer<typeof ENVELOPE_FROM_MODEL>) {
  const result = facts.pending.length > 0 ? 'needs_input' : facts.errors.length > 0 ? (facts.actions.length > 0 ? 'partial' : 'failed') : (fromModel?.result ?? 'ok');
  return {
    result,
    summary: fromModel?.summary ?? firstSentence(resultText),
    follow_up: describePending(facts.pending) ?? fromModel?.follow_up ?? null,
    actions: facts.actions,
    files: facts.files,
  };
}

/**
 * One run: the agent works the instruction with its tools (prose and real actions), then a second call shapes
 * `output` from that conversation, so a failure to shape never costs the prose or the actions. It stops when its
 * runner loses the hold on the run (`held.signal`), and performs no action the hold refuses; asked to stop
 * (`stopping`), it starts no further model turn or tool call.
 */
export async function executeRun(input: { deps: Deps; run: StoredRun; agent: StoredAgent; model: LanguageModel; tools: AgentTool[]; held: Pick<HeldRun, 'signal' | 'beforeAction'>; stopping: RunStopping }): Promise<RunOutcome> {
  const steps = await openStepLog(input.deps, input.run);
  // Every recorded step is stored before the run's outcome is (a stopped run's too), so a finished run's steps are complete.
  const outcome = await work(input, turnRecorder(steps, input.tools)).finally(() => steps.flush());
  return { ...outcome, stepsCount: steps.count };
}

async function work(input: Parameters<typeof executeRun>[0], recorder: ReturnType<typeof turnRecorder>): Promise<Omit<RunOutcome, 'stepsCount'>> {
  const { deps, run, agent, model, held, stopping } = input;
  const workSignal = AbortSignal.any([held.signal, stopping.signal]);
  const system = runSystemPrompt(agent, run, deps.now());
  const { toolSet, facts } = recordedTools(input.tools, { deps, workspaceId: run.workspaceId, agent, runId: run.runId }, run.autonomy, held.beforeAction);
  const acted = await generateText({
    model,
    system,
    prompt: run.instruction,
    tools: stopping.guard(toolSet),
    stopWhen: stepCountIs(MAX_STEPS),
    prepareStep: () => stopping.checkpoint().then(() => undefined),
    onToolExecutionEnd: recorder.onToolExecutionEnd,
    onStepEnd: (step) => {
      recorder.onStepEnd(step);
      stopping.recordStep(step);
    },
    abortSignal: AbortSignal.any([workSignal, AbortSignal.timeout(RUN_TIMEOUT_MS)]),
  });
  await stopping.checkpoint();
  const resultText = acted.text;
  const messages: ModelMessage[] = [{ role: 'user', content: run.instruction }, ...acted.responseMessages];
  const acting = tokens(acted.totalUsage);

  const check = run.schema ? checkOutputSchema(run.schema) : undefined;
  if (check?.ok) {
    const shaped = await shape(model, system, messages, zodFromOutputSchema(check.schema), workSignal);
    return {
      resultText,
      output: 'value' in shaped ? (withNullsFilled(check.schema, shaped.value) as Record<string, unknown>) : null,
      outputError: 'error' in shaped ? shaped.error! : null,
      usage: { inputTokens: acting.inputTokens + shaped.usage.inputTokens, outputTokens: acting.outputTokens + shaped.usage.outputTokens },
    };
  }
  const shaped = await shape(model, system, messages, ENVELOPE_FROM_MODEL, workSignal);
  return {
    resultText,
    output: defaultEnvelope(facts, resultText, 'value' in shaped ? shaped.value : undefined),
    outputError: null,
    usage: { inputTokens: acting.inputTokens + shaped.usage.inputTokens, outputTokens: acting.outputTokens + shaped.usage.outputTokens },
  };
}
