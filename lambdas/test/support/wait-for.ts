/** Polls `what` until it gives something other than undefined (then that), or throws past `timeoutMs`: no fixed sleeps. */
export async function waitFor<T>(what: () => Promise<T | undefined>, timeoutMs = 30_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const found = await what();
    if (found !== undefined) return found;
    if (Date.now() > until) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
