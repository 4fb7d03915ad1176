import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { VIEWER_HOST_HEADER } from '@service/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningPlatform } from '../../src/entries/local/platform';
import { startTestPlatform } from '../support/platform';
import { connectByConsent, mcpCall } from './oauth-flow';

/**
 * The MCP access point behind the dashboard's CDN, as a default deploy serves it: on the MCP paths the CDN reaches the
 * function with the function's own Host and names the viewer's host in VIEWER_HOST_HEADER (cdk/lib/mcp.ts). A proxy
 * does the same here, so the person signs in, consents and calls /mcp on the proxy's origin only. (The REST API keeps
 * the viewer's Host here, standing in for the DASHBOARD_ORIGIN the stack gives the API functions.)
 */
const MCP_PATHS = /^\/(mcp|oauth\/|\.well-known\/)/;
let platform: RunningPlatform;
let cdn: Server;
let cdnOrigin: string;

function startCdn(): Promise<Server> {
  const server = createServer((viewer, answer) => {
    const target = new URL(platform.url);
    const headers = MCP_PATHS.test(viewer.url!) ? { ...viewer.headers, host: target.host, [VIEWER_HOST_HEADER]: viewer.headers.host } : viewer.headers;
    const upstream = request({ host: target.hostname, port: target.port, method: viewer.method, path: viewer.url, headers }, (origin) => {
      answer.writeHead(origin.statusCode!, origin.rawHeaders);
      origin.pipe(answer);
    });
    viewer.pipe(upstream);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

beforeAll(async () => {
  cdn = await startCdn();
  cdnOrigin = `http://127.0.0.1:${(cdn.address() as AddressInfo).port}`;
  platform = await startTestPlatform({ env: { PUBLIC_HOSTS: new URL(cdnOrigin).host } });
});
afterAll(async () => {
  cdn?.closeAllConnections();
  await new Promise((resolve) => cdn?.close(resolve));
  await platform?.stop();
});

describe('the MCP access point behind the CDN', () => {
  it('names the viewer’s origin as issuer and resource in its metadata and its 401 challenge', async () => {
    const metadata = (await (await fetch(`${cdnOrigin}/.well-known/oauth-authorization-server`)).json()) as Record<string, string>;
    expect(metadata).toMatchObject({ issuer: cdnOrigin, authorization_endpoint: `${cdnOrigin}/oauth/authorize`, token_endpoint: `${cdnOrigin}/oauth/token` });
    expect(await (await fetch(`${cdnOrigin}/.well-known/oauth-protected-resource/mcp`)).json()).toMatchObject({
      resource: `${cdnOrigin}/mcp`,
      authorization_servers: [cdnOrigin],
    });
    const challenge = await mcpCall(cdnOrigin, undefined, 'tools/list');
    expect(challenge.headers.get('www-authenticate')).toContain(`resource_metadata="${cdnOrigin}/.well-known/oauth-protected-resource/mcp"`);
  });

  it('signs the person in, takes their consent and answers the assistant, all on the viewer’s origin', async () => {
    const tokens = await connectByConsent(cdnOrigin, platform.demo.ownerEmail, ['agents:read', 'agents:ask', 'offline_access']);
    const listed = await mcpCall(cdnOrigin, tokens.access_token, 'tools/call', { name: 'list_agents', arguments: {} });
    expect(listed.status).toBe(200);
    expect(JSON.stringify(listed.body.result)).toContain(platform.demo.agentId);
  });

  it('ignores a viewer host the deploy does not allow: the request’s own origin serves', async () => {
    const metadata = (await (
      await fetch(`${platform.url}/.well-known/oauth-authorization-server`, { headers: { [VIEWER_HOST_HEADER]: 'attacker.example' } })
    ).json()) as Record<string, string>;
    expect(metadata.issuer).toBe(platform.url);
  });
});
