import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OutboundBlockedError } from '../../src/infra/net/outbound-guard';
import { skillFetch, SkillResponseTooLargeError } from '../../src/domains/skills/skill-fetch';

describe('the fetch the runtime reaches skills with', () => {
  const server = createServer((req, res) => {
    const size = Number(new URL(req.url ?? '/', 'http://x').searchParams.get('bytes') ?? 0);
    res.writeHead(200, { 'content-type': 'application/json' }).end('x'.repeat(size));
  });
  let base = '';
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('reads a response under the cap and fails one past it', async () => {
    const fetchSkill = skillFetch({ allowLocal: true }, 1024);
    expect(await (await fetchSkill(`${base}/?bytes=1000`)).text()).toHaveLength(1000);
    await expect((await fetchSkill(`${base}/?bytes=5000`)).text()).rejects.toBeInstanceOf(SkillResponseTooLargeError);
  });

  it('applies the outbound guard to customer skills: no http, no loopback without the local allowance', async () => {
    await expect(skillFetch({ allowLocal: false })(`${base}/`)).rejects.toBeInstanceOf(OutboundBlockedError);
    await expect(skillFetch({ allowLocal: false })('https://localhost:1/')).rejects.toThrow(/loopback/);
  });
});

describe('a kept-alive connection to a skill', () => {
  // The server closes a connection idle for 3 s and says so (`Keep-Alive: timeout=3`). A client that waits for that
  // close may send a tool call on the socket as it closes, and lose the call to ECONNRESET.
  const server = createServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{}'));
  server.keepAliveTimeout = 3_000;
  let base = '';
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it.each([
    ['a built-in skill', undefined],
    ['a customer skill', { allowLocal: true }],
  ])('is closed by the runtime before the server would close it: %s', async (_kind, guard) => {
    const closedBy = new Promise<'client' | 'server'>((resolve) =>
      server.once('connection', (socket) => {
        let peerEnded = false;
        socket.once('end', () => (peerEnded = true));
        socket.once('close', () => resolve(peerEnded ? 'client' : 'server'));
      }),
    );
    expect((await skillFetch(guard)(`${base}/`)).status).toBe(200);
    expect(await closedBy).toBe('client');
  });
});
