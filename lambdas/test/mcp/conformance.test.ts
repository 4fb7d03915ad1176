import { execFile } from 'node:child_process';
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { usePlatform } from '../support/platform';
import { connectByConsent } from './oauth-flow';

const run = promisify(execFile);
const CLI = 'node_modules/@modelcontextprotocol/conformance/dist/index.js';

/**
 * The official conformance suite (@modelcontextprotocol/conformance) against /mcp, for the server scenarios that
 * apply to the tools we serve (docs/mcp.md, Conformance, lists the others with the reason). The suite's CLI cannot send a token, so it
 * talks to a loopback proxy that adds a real bearer token from the authorization flow and passes everything else on
 * as sent, Host and Origin included (the DNS rebinding scenario depends on them).
 */
export const APPLICABLE_SERVER_SCENARIOS = ['server-initialize', 'ping', 'tools-list', 'dns-rebinding-protection'] as const;

describe('MCP conformance suite (server scenarios)', () => {
  const ctx = usePlatform();
  let proxy: Server;
  let proxyUrl: string;

  let token = '';

  beforeAll(async () => {
    const target = new URL(ctx.platform.url);
    const proxyPort = await new Promise<number>((resolve) => {
      proxy = createServer((incoming, outgoing) => {
        const headers = { ...incoming.headers, ...(token && incoming.url?.startsWith('/mcp') ? { authorization: `Bearer ${token}` } : {}) };
        const forwarded = httpRequest({ host: target.hostname, port: target.port, path: incoming.url, method: incoming.method, headers }, (answer) => {
          outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(outgoing);
        });
        incoming.pipe(forwarded);
      }).listen(0, '127.0.0.1', () => resolve((proxy.address() as AddressInfo).port));
    });
    // The whole authorization runs through the proxy, so the token's resource is the address the suite uses.
    const origin = `http://localhost:${proxyPort}`;
    proxyUrl = `${origin}/mcp`;
    token = (await connectByConsent(origin, ctx.platform.demo.ownerEmail, ['agents:read', 'agents:ask'], 'Conformance suite')).access_token;
  }, 60_000);

  afterAll(() => {
    proxy?.close();
  });

  it.each(APPLICABLE_SERVER_SCENARIOS)(
    'passes %s',
    async (scenario) => {
      const { stdout, stderr } = await run(process.execPath, [CLI, 'server', '--url', proxyUrl, '--scenario', scenario, '--verbose'], {
        timeout: 60_000,
      }).catch((error: { stdout: string; stderr: string }) => error);
      // --verbose prints the checks as a JSON array (from a line "[" to a line "]"), then a summary.
      const lines = stdout.split('\n');
      const json = lines.slice(lines.indexOf('['), lines.indexOf(']') + 1).join('\n');
      const checks = JSON.parse(json) as Array<{ id: string; status: string; errorMessage?: string }>;
      console.log(scenario, checks.map((check) => `${check.id}: ${check.status}${check.errorMessage ? ` (${check.errorMessage})` : ''}`).join('; '));
      expect(checks.length, stderr).toBeGreaterThan(0);
      expect(checks.filter((check) => check.status === 'FAILURE' || check.status === 'WARNING')).toEqual([]);
    },
    90_000,
  );
});
