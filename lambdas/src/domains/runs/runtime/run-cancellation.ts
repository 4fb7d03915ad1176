import type { LanguageModelUsage, ToolSet } from 'ai';
import type { Deps } from '../../../infra/deps';
import { findRun } from '../runs';
import { stoppableTools } from './stoppable-tools';

/** The run was asked to stop (agents/command_cancel): the runner ends it `cancelled`. */
export class RunCancelled extends Error {}

/**
 * How a running run stops when agents/command_cancel asks it to. The promise: once command_cancel has answered, no
 * model turn or tool call of the run starts. Two parts keep it cheaply:
 * - `checkpoint()` before every model turn and every tool call reads the run consistently, so a stop recorded before
 *   the read is always seen and the step never starts (one small read per step, beside a model call or a tool call);
 * - a step already under way is cut short by the lease heartbeat, whose renewal returns the stop flag at no extra
 *   cost (`stopRequested`): `signal` aborts the AI SDK's loop, and a tool call in flight is no longer waited for.
 * command_cancel waits for the runner's acknowledgement (the run `cancelled`, with its text and usage so far) for
 * about a heartbeat before it ends the run itself.
 */
export interface RunStopping {
  /** Aborted once a stop is seen. */
  readonly signal: AbortSignal;
  /** Throws RunCancelled when a stop was asked for. */
  checkpoint(): Promise<void>;
  /** The heartbeat saw a stop request. */
  stopRequested(): void;
  /** The tools, each checking for a stop before it starts and giving up its wait when one comes. */
  guard(tools: ToolSet): ToolSet;
  /** Keeps each finished model turn's text and tokens: what a stopped run has produced so far. */
  recordStep(step: { text: string; usage: LanguageModelUsage }): void;
  readonly requested: boolean;
  readonly progress: { resultText: string; usage: { inputTokens: number; outputTokens: number } };
}

export function watchForStop(deps: Deps, runId: string): RunStopping {
  const controller = new AbortController();
  const texts: string[] = [];
  const usage = { inputTokens: 0, outputTokens: 0 };
  const stop = () => {
    if (!controller.signal.aborted) controller.abort(new RunCancelled(`run ${runId} was cancelled`));
  };
  const checkpoint = async () => {
    if (!controller.signal.aborted && (await findRun(deps, runId))?.cancelRequestedAt) stop();
    controller.signal.throwIfAborted();
  };
  return {
    signal: controller.signal,
    checkpoint,
    stopRequested: stop,
    guard: (tools) => stoppableTools(tools, controller.signal, checkpoint),
    recordStep: (step) => {
      if (step.text) texts.push(step.text);
      usage.inputTokens += step.usage.inputTokens ?? 0;
      usage.outputTokens += step.usage.outputTokens ?? 0;
    },
    get requested() {
      return controller.signal.aborted;
    },
    get progress() {
      return { resultText: texts.join('\n\n'), usage: { ...usage } };
    },
  };
}
