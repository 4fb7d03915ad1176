import { checkOutputSchema, type RunSource } from '@service/shared';
import {
  generateText,
  Output,
  streamText,
  stepCountIs,
  type LanguageModel,
  type LanguageModelUsage,
  type ModelMessage,
  type TelemetryOptions,
  type ToolExecutionEndEvent,
} from 'ai';
import type { z } from 'zod';
import type { Deps } from '../../../infra/deps';
import type { StoredAgent } from '../../agents/agents';
import type { StoredRun } from '../runs';
import type { AgentTool } from '../../skills/agent-tool';
import type { HeldRun } from './run-lease';
import type { RunStopping } from './run-cancellation';
import { ENVELOPE_FROM_MODEL, withNullsFilled, zodFromOutputSchema } from './output-shape';
import { runSystemPrompt } from './prompt';
import { describePending, recordedTools, type RunFacts } from './tool-recorder';
import { retrievalGuard } from './retrieval-guard';
import { KNOWLEDGE_SEARCH_CAPABILITY, offersKnowledge } from './run-sources';
import { answerFilter, passageUrls, renderCitedAnswer, type CitationDoor } from './cited-answer';
import { agentLinkPolicy } from './link-policy';
import { traceRemovedLinks } from '../../telemetry/tracing';
import { noteIfUnanswered } from '../../knowledge/unanswered';
import { traceTelemetry } from '../../telemetry/tracing';
import { openStepLog, type NewStep, type StepLog } from '../steps/step-log';
import { turnRecorder } from '../steps/turn-steps';
import { answeredStep, approvalAnswerMessage, approvalResultMessage, askedAction, type ApprovalRequest } from './approval-turns';
import type { Parking } from '../approvals';
import { waitingSteps } from '../pending-action';

type Usage = { inputTokens: number; outputTokens: number };

export interface RunOutcome {
  kind: 'finished';
  resultText: string;
  output: Record<string, unknown> | null;
  outputError: string | null;
  usage: Usage;
  /** How many steps the run recorded (see steps/step-log.ts). */
  stepsCount: number;
  /** The passages its answer cites (agents/command_status `sources`): none when it cites none or says it does not know. */
  sources: RunSource[];
}

/**
 * The run stopped to wait for a person (autonomy `confirm`): what to park it with, and `announce`, which stores its
 * `approval_requested` and `requires_action` steps once it is parked (seen earlier, an approval would find the run
 * still running and be refused).
 */
export interface RunParks {
  kind: 'parks';
  parking: Parking;
  announce(): Promise<void>;
}

/** What the work of a run comes to before its step count is known. */
type WorkDone = Omit<RunOutcome, 'stepsCount'> | { kind: 'parks'; parking: Omit<Parking, 'stepsCount'>; waitSteps: NewStep[] };

const MAX_STEPS = 8;
/** A failure no retry of the run can mend (the runner fails the run at once, with this reason). */
export class RunCannotGoOn extends Error {}

/** The largest conversation a run parks with (the rest of the run item, its output included, fits beside it). */
export const CONVERSATION_MAX_BYTES = 200 * 1024;
const RUN_TIMEOUT_MS = 120_000;

const tokens = (usage: LanguageModelUsage) => ({ inputTokens: usage.inputTokens ?? 0, outputTokens: usage.outputTokens ?? 0 });
const plus = (a: Usage, b: Usage): Usage => ({ inputTokens: a.inputTokens + b.inputTokens, outputTokens: a.outputTokens + b.outputTokens });
export const firstSentence = (text: string) => text.match(/^[\s\S]*?[.!?](?=\s|$)/)?.[0]?.trim() ?? text.trim();

/** Asks the model for the structured answer over the finished conversation; a mismatch is an error message, not a failed run. */
async function shape<T>(
  model: LanguageModel,
  system: string,
  messages: ModelMessage[],
  schema: z.ZodType<T>,
  held: AbortSignal,
  telemetry: TelemetryOptions | undefined,
) {
  held.throwIfAborted();
  try {
    const result = await generateText({
      model,
      system,
      messages,
      output: Output.object({ schema }),
      abortSignal: AbortSignal.any([held, AbortSignal.timeout(RUN_TIMEOUT_MS)]),
      telemetry,
    });
    return { value: result.output as T, usage: tokens(result.usage) };
  } catch (error) {
    held.throwIfAborted();
    return {
      error: `The answer could not be shaped to the schema: ${error instanceof Error ? error.message : String(error)}`,
      usage: { inputTokens: 0, outputTokens: 0 },
    };
  }
}

function defaultEnvelope(facts: RunFacts, resultText: string, sources: RunSource[], fromModel?: z.infer<typeof ENVELOPE_FROM_MODEL>) {
  const result =
    facts.pending.length > 0 ? 'needs_input' : facts.errors.length > 0 ? (facts.actions.length > 0 ? 'partial' : 'failed') : (fromModel?.result ?? 'ok');
  return {
    result,
    summary: fromModel?.summary ?? firstSentence(resultText),
    follow_up: describePending(facts.pending) ?? fromModel?.follow_up ?? null,
    actions: facts.actions,
    files: facts.files,
    sources,
  };
}

/** `language`: the run's conversation language (run-language.ts). */
type RunInput = {
  deps: Deps;
  run: StoredRun;
  agent: StoredAgent;
  language: string;
  model: LanguageModel;
  tools: AgentTool[];
  held: Pick<HeldRun, 'signal' | 'beforeAction'>;
  stopping: RunStopping;
  /** An eval's play of a command (domains/evals/): its question, unanswered, is no knowledge gap of the agent's. */
  rehearsal?: true;
};

/**
 * One run: the agent works the instruction with its tools (prose and real actions), then a second call shapes
 * `output` from that conversation, so a failure to shape never costs the prose or the actions. It stops when its
 * runner loses the hold on the run (`held.signal`), and performs no action the hold refuses; asked to stop
 * (`stopping`), it starts no further model turn or tool call. With autonomy `confirm` it parks at an action that waits
 * for a person, and a run answered since goes on from its stored conversation (approvals.ts).
 */
export async function executeRun(input: RunInput): Promise<RunOutcome | RunParks> {
  const action = input.run.pendingAction;
  const resumed = action?.decision && input.run.conversationJson ? action : undefined;
  const steps = await openStepLog(input.deps, input.run, resumed ? [answeredStep(resumed)] : []);
  // Every recorded step is stored before the run's outcome is (a stopped run's too), so a finished run's steps are complete.
  const outcome = await work(input, steps).finally(() => steps.flush());
  if (outcome.kind !== 'parks') return { ...outcome, stepsCount: steps.count };
  const { waitSteps } = outcome;
  return {
    kind: 'parks',
    parking: { ...outcome.parking, stepsCount: steps.count + waitSteps.length },
    announce: () => {
      steps.record(...waitSteps);
      return steps.flush();
    },
  };
}

/** The conversation so far: the instruction, or a parked run's stored one with the person's answer to what it asked. */
function conversationOf(run: StoredRun): { history: ModelMessage[]; answer?: ModelMessage } {
  if (!run.conversationJson || !run.pendingAction?.decision) return { history: [{ role: 'user', content: run.instruction }] };
  const history = JSON.parse(run.conversationJson) as ModelMessage[];
  return { history, answer: approvalAnswerMessage(history, run.pendingAction) };
}

/** A REST result, an MCP answer and a mail cite plainly: the number, and the cited passages' links under the answer. */
const PLAIN: CitationDoor = { kind: 'plain' };

async function work(input: RunInput, steps: StepLog): Promise<WorkDone> {
  const { deps, run, agent, model, held, stopping } = input;
  const workSignal = AbortSignal.any([held.signal, stopping.signal]);
  const system = runSystemPrompt(agent, run, { now: deps.now(), language: input.language, knowledge: offersKnowledge(input.tools) });
  // What the caller gave is what actions may aim at once retrieved content is in the run (retrieval-guard.ts).
  const guard = retrievalGuard([run.instruction, run.data ?? null, agent.email]);
  const { toolSet, facts } = recordedTools(
    input.tools,
    { deps, workspaceId: run.workspaceId, agent, runId: run.runId },
    run.autonomy,
    held.beforeAction,
    guard,
  );
  // The text is shown as it streams (steps, text pieces) and as the result with its links checked and its citations written.
  const links = await agentLinkPolicy(deps, agent, passageUrls(facts.citations));
  const recorder = turnRecorder(steps, input.tools, () => answerFilter(facts.citations, links, PLAIN));
  const { history, answer } = conversationOf(run);
  // What the approved calls answered, for the stored conversation (the AI SDK runs them, but keeps their results out of its own messages).
  const approvedResults = new Map<string, unknown>();
  const telemetry = await traceTelemetry(deps, { workspaceId: run.workspaceId, agent, runId: run.runId });
  // Streamed, so that the run's stream shows the text as the model writes it (text pieces, text-deltas.ts).
  const acted = streamText({
    model: stopping.guardModel(model),
    system,
    ...(answer ? { messages: [...history, answer] } : { prompt: run.instruction }),
    tools: stopping.guard(toolSet),
    stopWhen: stepCountIs(MAX_STEPS),
    prepareStep: () => stopping.checkpoint().then(() => undefined),
    onToolExecutionEnd: (event: ToolExecutionEndEvent) => {
      recorder.onToolExecutionEnd(event);
      if (event.toolOutput.type === 'tool-result') approvedResults.set(event.toolCall.toolCallId, event.toolOutput.output);
    },
    onStepEnd: (step) => {
      const shown = recorder.onStepEnd(step);
      stopping.recordStep({ ...step, text: shown });
    },
    abortSignal: AbortSignal.any([held.signal, AbortSignal.timeout(RUN_TIMEOUT_MS)]),
    telemetry,
  });
  for await (const part of acted.fullStream) {
    if (part.type === 'text-delta') recorder.onTextDelta(part.text);
    else if (part.type === 'error') throw part.error;
  }
  await stopping.checkpoint();
  const cited = renderCitedAnswer(await acted.text, facts.citations, links, PLAIN);
  const { text: resultText, sources } = cited;
  await traceRemovedLinks(deps, { workspaceId: run.workspaceId, agent, runId: run.runId }, cited.removed);
  if (offersKnowledge(input.tools) && !input.rehearsal) {
    const turn = { searched: facts.actions.includes(KNOWLEDGE_SEARCH_CAPABILITY), passages: facts.citations.passages.length, answer: resultText };
    await noteIfUnanswered(deps, turn, { workspaceId: run.workspaceId, agentId: agent.id, question: run.instruction, language: input.language });
  }
  const messages: ModelMessage[] = [
    ...history,
    ...(answer ? [approvalResultMessage(history, run.pendingAction!, approvedResults)] : []),
    ...(await acted.responseMessages),
  ];
  const acting = plus(run.usage, tokens(await acted.totalUsage));

  const request = (await acted.content).find((part): part is ApprovalRequest => part.type === 'tool-approval-request');
  if (request) {
    const conversationJson = JSON.stringify(messages);
    // The conversation waits on the run item (DynamoDB: 400 KB an item); one too large to keep cannot wait for a person.
    if (Buffer.byteLength(conversationJson) > CONVERSATION_MAX_BYTES) {
      throw new RunCannotGoOn(
        `The run could not wait for approval: its conversation is over ${CONVERSATION_MAX_BYTES / 1024} KB (large tool results); run it with autonomy full or read_only`,
      );
    }
    const pendingAction = askedAction(request, input.tools, firstSentence(resultText), agent.name, deps.now());
    return { kind: 'parks', parking: { pendingAction, conversationJson, usage: acting }, waitSteps: waitingSteps(pendingAction) };
  }

  const check = run.schema ? checkOutputSchema(run.schema) : undefined;
  if (check?.ok) {
    const shaped = await shape(model, system, messages, zodFromOutputSchema(check.schema), workSignal, telemetry);
    return {
      kind: 'finished',
      resultText,
      output: 'value' in shaped ? (withNullsFilled(check.schema, shaped.value) as Record<string, unknown>) : null,
      outputError: 'error' in shaped ? shaped.error! : null,
      usage: plus(acting, shaped.usage),
      sources,
    };
  }
  const shaped = await shape(model, system, messages, ENVELOPE_FROM_MODEL, workSignal, telemetry);
  return {
    kind: 'finished',
    resultText,
    output: defaultEnvelope(facts, resultText, sources, 'value' in shaped ? shaped.value : undefined),
    outputError: null,
    usage: plus(acting, shaped.usage),
    sources,
  };
}
