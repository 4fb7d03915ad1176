/** A start-up failure the user can fix: `npm start` prints its message as one line and exits non-zero, no stack. */
export class StartupError extends Error {}

/** The listen error of the platform's HTTP server, told in the user's terms where it is theirs to fix. */
export function listenError(error: unknown, host: string, port: number): unknown {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'EADDRINUSE') return new StartupError(`port ${port} is in use on ${host} (another \`npm start\`?): stop it, or start with PORT=<another port>`);
  if (code === 'EACCES') return new StartupError(`port ${port} on ${host} needs privileges this user lacks: start with PORT=<a port above 1023>`);
  if (code === 'EADDRNOTAVAIL') return new StartupError(`HOST ${host} is not an address of this machine: start with HOST=127.0.0.1`);
  return error;
}
