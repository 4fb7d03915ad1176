/** Stops a running platform, then exits, on Ctrl-C or a termination signal (`npm start`, plain or --bundled). */
export function stopOnSignal(platform: { stop(): Promise<void> }): void {
  const shutdown = async () => {
    await platform.stop();
    process.exit(0);
  };
  process.once('SIGINT', () => void shutdown());
  process.once('SIGTERM', () => void shutdown());
}
