import type { ToolSet } from 'ai';

const untilAborted = (signal: AbortSignal) =>
  new Promise<never>((_, reject) => {
    if (signal.aborted) reject(signal.reason);
    signal.addEventListener('abort', () => reject(signal.reason), { once: true });
  });

/**
 * The tools, each starting only when `beforeStart` lets it (it throws to refuse) and `signal` is not aborted; a call
 * already started is no longer waited for once `signal` aborts (its answer would reach no one).
 */
export function stoppableTools(tools: ToolSet, signal: AbortSignal, beforeStart: () => Promise<void> = async () => undefined): ToolSet {
  return Object.fromEntries(
    Object.entries(tools).map(([name, tool]) => {
      const execute = tool.execute;
      if (!execute) return [name, tool];
      const stoppable = async (input: unknown, options: Parameters<typeof execute>[1]) => {
        signal.throwIfAborted();
        await beforeStart();
        signal.throwIfAborted();
        const running = Promise.resolve(execute(input, options) as PromiseLike<unknown>);
        running.catch(() => undefined);
        return Promise.race([running, untilAborted(signal)]);
      };
      return [name, { ...tool, execute: stoppable }];
    }),
  );
}
