import { wrapLanguageModel, type LanguageModel, type LanguageModelUsage, type ToolSet } from 'ai';
import { performance } from 'node:perf_hooks';
import type { Deps } from '../../../infra/deps';
import { STOP_ACKNOWLEDGE_MS } from '../cancel-run';
import { findRun } from '../runs';
import { stoppableTools } from './stoppable-tools';

/** The run was asked to stop (agents/command_cancel): the runner ends it `cancelled`. */
export class RunCancelled extends Error {}

/**
 * How long a look at the run that found no stop asked for stands in for the checkpoint's read. Safe while it is well
 * under STOP_ACKNOWLEDGE_MS: a stop recorded after that look makes command_cancel wait STOP_ACKNOWLEDGE_MS before it
 * answers (unless this runner acknowledges it first), so a step that starts within this of the look still starts
 * before the answer. It spares a quick run (the offline model, a fast skill) a read before each of its steps, while
 * the steps of a model that takes seconds are each read before, as always.
 */
export const STOP_LOOK_VALID_MS = Math.min(1_000, STOP_ACKNOWLEDGE_MS / 4);

/**
 * How a running run stops when agents/command_cancel asks it to. The promise: once command_cancel has answered, no
 * model turn or tool call of the run starts. Two parts keep it cheaply:
 * - `checkpoint()` before every model turn and every tool call reads the run consistently, so a stop recorded before
 *   the read is always seen and the step never starts; the read is skipped while a look at the run under
 *   STOP_LOOK_VALID_MS old found no stop (taking the run, a heartbeat's renewal, or the last checkpoint's read);
 * - a step already under way is cut short by the lease heartbeat, whose renewal returns the stop flag at no extra
 *   cost (`looked`): `signal` aborts the AI SDK's loop, and a tool call in flight is no longer waited for.
 * command_cancel waits for the runner's acknowledgement (the run `cancelled`, with its text and usage so far) for
 * STOP_ACKNOWLEDGE_MS before it ends the run itself.
 */
export interface RunStopping {
  /** Aborted once a stop is seen. */
  readonly signal: AbortSignal;
  /** Throws RunCancelled when a stop was asked for. */
  checkpoint(): Promise<void>;
  /** What a look at the run issued at `issuedAt` (performance.now()) found: the heartbeat's renewal. */
  looked(cancelRequested: boolean, issuedAt: number): void;
  /** The tools, each checking for a stop before it starts and giving up its wait when one comes. */
  guard(tools: ToolSet): ToolSet;
  /**
   * The model, its calls cut short by a stop. Only its calls: the streamed loop itself goes on to end the turn (a tool
   * given up by `guard`), so that the turn is recorded and the next checkpoint ends the run.
   */
  guardModel(model: LanguageModel): LanguageModel;
  /** Keeps each finished model turn's text and tokens: what a stopped run has produced so far. */
  recordStep(step: { text: string; usage: LanguageModelUsage }): void;
  readonly requested: boolean;
  readonly progress: { resultText: string; usage: { inputTokens: number; outputTokens: number } };
}

/** `clearAt`: when the look that found the run without a stop was issued (performance.now(); taking the run is one). */
export function watchForStop(deps: Deps, runId: string, clearAt: number): RunStopping {
  const controller = new AbortController();
  let lastClearAt = clearAt;
  const texts: string[] = [];
  const usage = { inputTokens: 0, outputTokens: 0 };
  const stop = () => {
    if (!controller.signal.aborted) controller.abort(new RunCancelled(`run ${runId} was cancelled`));
  };
  const looked = (cancelRequested: boolean, issuedAt: number) => {
    if (cancelRequested) stop();
    else lastClearAt = Math.max(lastClearAt, issuedAt);
  };
  const checkpoint = async () => {
    const issuedAt = performance.now();
    if (!controller.signal.aborted && issuedAt - lastClearAt >= STOP_LOOK_VALID_MS)
      looked((await findRun(deps, runId))?.cancelRequestedAt !== undefined, issuedAt);
    controller.signal.throwIfAborted();
  };
  return {
    signal: controller.signal,
    checkpoint,
    looked,
    guard: (tools) => stoppableTools(tools, controller.signal, checkpoint),
    guardModel: (model) =>
      // A model named by a string is resolved by the AI SDK's global provider, which this platform never sets.
      typeof model === 'string'
        ? model
        : wrapLanguageModel({
            model,
            middleware: {
              specificationVersion: 'v3',
              transformParams: async ({ params }) => ({
                ...params,
                abortSignal: params.abortSignal ? AbortSignal.any([params.abortSignal, controller.signal]) : controller.signal,
              }),
            },
          }),
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
