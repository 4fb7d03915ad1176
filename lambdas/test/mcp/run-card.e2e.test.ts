import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { RESOURCE_MIME_TYPE } from '@modelcontextprotocol/ext-apps/server';
import { build } from 'esbuild';
import { mkdirSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../../../test/browser/chromium';
import { AGENT_META_KEY, RUN_CARD_URI } from '../../src/surfaces/mcp/run-card/resource';
import { usePlatform } from '../support/platform';

const SHOTS = join(import.meta.dirname, '../../../test-results/mcp');

interface UiMeta {
  csp: { resourceDomains?: string[]; connectDomains?: string[] };
}

/** The CSP the spec asks a host to set for a View, from its declared domains: nothing inline, nothing undeclared. */
function viewCsp({ csp }: UiMeta): string {
  const resources = (csp.resourceDomains ?? []).join(' ') || "'none'";
  const connect = (csp.connectDomains ?? []).join(' ') || "'none'";
  return `default-src 'none'; script-src ${resources}; style-src ${resources}; img-src ${resources} data:; font-src ${resources}; connect-src ${connect}; frame-src 'none'; base-uri 'none'; form-action 'none'`;
}

/** Serves the host page (its script bundled from run-card-host.ts), the card document with its CSP, and the tool call. */
async function startHost(card: { html: string; csp: string }, delivery: unknown): Promise<{ server: Server; url: string }> {
  const bundle = await build({
    entryPoints: [join(import.meta.dirname, 'run-card-host.ts')],
    bundle: true,
    format: 'iife',
    platform: 'browser',
    write: false,
    logLevel: 'silent',
  });
  const hostScript = bundle.outputFiles[0]!.text;
  const pages: Record<string, { type: string; body: string; headers?: Record<string, string> }> = {
    '/': {
      type: 'text/html',
      body: '<!doctype html><title>Assistant</title><script src="/host.js"></script>',
      headers: { 'content-security-policy': "default-src 'self'; frame-src 'self'" },
    },
    '/host.js': { type: 'text/javascript', body: hostScript },
    '/delivery.json': { type: 'application/json', body: JSON.stringify(delivery) },
    '/card.html': { type: 'text/html', body: card.html, headers: { 'content-security-policy': card.csp } },
  };
  const server = createServer((request, response) => {
    const page = pages[request.url ?? ''];
    if (!page) return response.writeHead(404).end();
    response.writeHead(200, { 'content-type': `${page.type}; charset=utf-8`, ...page.headers }).end(page.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

/**
 * The run card of get_run and ask_agent (MCP Apps): an MCP key's client reads the card from the running platform,
 * a host page built on the extension's AppBridge frames it in Chromium under the strict CSP and delivers a real
 * get_run result; what a person sees is the run.
 */
describe('MCP run card', () => {
  const ctx = usePlatform();
  let client: Client;
  let browser: Browser;
  let host: Server | undefined;

  beforeAll(async () => {
    const made = await ctx.api<{ secret: string }>('connections/key_create', { body: { name: 'assistant', scopes: ['agents:read', 'agents:ask'] } });
    expect(made.status).toBe(201);
    const secret = made.body.data.secret;
    client = new Client({ name: 'assistant', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL('/mcp', ctx.platform.url), { authProvider: { token: async () => secret } }));
    browser = await launchChromium();
  });
  afterAll(async () => {
    await client?.close();
    await browser?.close();
    await new Promise((resolve) => (host ? host.close(resolve) : resolve(undefined)));
  });

  it('get_run and ask_agent point at the card; other tools and plain clients get what they got before', async () => {
    // The card is a fixed resource: no resource list change is promised.
    expect(client.getServerCapabilities()?.resources).toEqual({ listChanged: false });
    const { tools } = await client.listTools();
    const uiOf = (name: string) => tools.find((tool) => tool.name === name)?._meta?.ui;
    expect(uiOf('get_run')).toEqual({ resourceUri: RUN_CARD_URI });
    expect(uiOf('ask_agent')).toEqual({ resourceUri: RUN_CARD_URI });
    expect(uiOf('list_agents')).toBeUndefined();
    expect(uiOf('list_runs')).toBeUndefined();

    const asked = await client.callTool({ name: 'ask_agent', arguments: { agent_id: ctx.agentId, instruction: 'Hello', wait_seconds: 20 } });
    const run = asked.structuredContent as { run_id: string; result_text: string };
    const got = await client.callTool({ name: 'get_run', arguments: { run_id: run.run_id } });
    // The text and structured content are the run as before; only _meta is added (the agent's name, for the card).
    expect(Object.keys(got).sort()).toEqual(['_meta', 'content', 'structuredContent']);
    expect(got.content).toEqual([{ type: 'text', text: run.result_text }]);
    const { done: _done, ...sameRun } = asked.structuredContent as Record<string, unknown>;
    expect(got.structuredContent).toEqual(sameRun);
    // The run's fields, `pending_action` included (null unless the run waits for a person's approval), and `sources`
    // (the company's content the answer cites).
    expect(Object.keys(got.structuredContent!).sort()).toEqual(
      [
        'agent_id',
        'autonomy',
        'completed_at',
        'created_at',
        'error',
        'instruction',
        'output',
        'output_error',
        'pending_action',
        'result_text',
        'run_id',
        'sources',
        'status',
      ].sort(),
    );
  });

  it("serves the card's script and stylesheet by name only, with their types", async () => {
    const script = await fetch(new URL('/mcp-ui/run-card.js', ctx.platform.url));
    expect(script.status).toBe(200);
    expect(script.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(script.headers.get('x-content-type-options')).toBe('nosniff');
    expect((await fetch(new URL('/mcp-ui/run-card.css', ctx.platform.url))).headers.get('content-type')).toBe('text/css; charset=utf-8');
    const unknown = await fetch(new URL('/mcp-ui/other.js', ctx.platform.url));
    expect(unknown.status).toBe(404);
    expect(((await unknown.json()) as { error: { code: string } }).error.code).toBe('NOT_FOUND');
    expect((await fetch(new URL('/mcp-ui/run-card.js', ctx.platform.url), { method: 'POST' })).status).toBe(405);
  });

  it('renders a real get_run result in Chromium under the strict CSP: status, agent, answer and the output table', async () => {
    const { resources } = await client.listResources();
    expect(resources).toEqual([expect.objectContaining({ uri: RUN_CARD_URI, mimeType: RESOURCE_MIME_TYPE })]);
    const read = await client.readResource({ uri: RUN_CARD_URI });
    const content = read.contents[0] as { uri: string; mimeType: string; text: string; _meta: { ui: UiMeta } };
    expect(content).toMatchObject({ uri: RUN_CARD_URI, mimeType: RESOURCE_MIME_TYPE });
    expect(content._meta.ui.csp).toEqual({ resourceDomains: [new URL(ctx.platform.url).origin], connectDomains: [] });
    expect(content.text).not.toMatch(/<style|style=|<script>|<script(?![^>]*\ssrc=)/i);

    const schema = {
      type: 'object',
      properties: {
        company: { type: 'string', description: 'Company name of the lead' },
        email: { type: 'string' },
        budget: { type: 'number' },
        address: { type: 'object', properties: { city: { type: 'string' } } },
      },
    };
    const data = { company: 'Acme GmbH', email: 'buyer@acme.example' };
    const asked = await client.callTool({
      name: 'ask_agent',
      arguments: { agent_id: ctx.agentId, instruction: 'Summarise the lead.', data, schema, wait_seconds: 20 },
    });
    const runId = (asked.structuredContent as { run_id: string }).run_id;
    const result = await client.callTool({ name: 'get_run', arguments: { run_id: runId } });
    const run = result.structuredContent as { status: string; result_text: string; output: Record<string, unknown> };
    expect(run, JSON.stringify(run)).toMatchObject({ status: 'completed', output: { company: 'Acme GmbH', email: 'buyer@acme.example' } });
    const agent = (result._meta as Record<string, { name: string }>)[AGENT_META_KEY]!;
    const { agents } = (await client.callTool({ name: 'list_agents', arguments: {} })).structuredContent as { agents: Array<{ id: string; name: string }> };
    expect(agent.name).toBe(agents.find((candidate) => candidate.id === ctx.agentId)!.name);

    const started = await startHost({ html: content.text, csp: viewCsp(content._meta.ui) }, { arguments: { run_id: runId }, result });
    host = started.server;
    const page = await browser.newPage({ viewport: { width: 560, height: 480 } });
    const cspViolations: string[] = [];
    page.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) cspViolations.push(message.text());
    });
    page.on('pageerror', (error) => cspViolations.push(`page error: ${error.message}`));
    await page.goto(started.url);

    const card = page.frameLocator('iframe').locator('.card');
    await expect.poll(() => card.locator('.status').textContent(), { timeout: 15_000 }).toBe('Completed');
    expect(await card.locator('.agent').textContent()).toBe(agent.name);
    expect(await card.locator('.answer').textContent()).toBe(run.result_text);
    const rows = await card
      .locator('table.output tr')
      .evaluateAll((trs) => trs.map((tr) => [tr.querySelector('th')!.textContent, tr.querySelector('td')!.textContent]));
    expect(rows).toEqual(Object.entries(run.output).map(([key, value]) => [key, typeof value === 'string' ? value : JSON.stringify(value)]));
    expect(rows).toEqual([
      ['company', 'Acme GmbH'],
      ['email', 'buyer@acme.example'],
      ['budget', 'null'],
      ['address', '{"city":null}'],
    ]);
    // The stylesheet applied (a blocked one would leave the table unstyled).
    expect(await card.locator('table.output').evaluate((table) => getComputedStyle(table).borderCollapse)).toBe('collapse');

    // The host sized the frame to the card's height (ui/notifications/size-changed): the whole card is in view.
    await expect.poll(() => page.locator('iframe').evaluate((frame) => frame.getBoundingClientRect().height)).toBeGreaterThan(150);
    mkdirSync(SHOTS, { recursive: true });
    await page.screenshot({ path: join(SHOTS, 'run-card.png') });
    expect(cspViolations).toEqual([]);
    await page.close();
  });
});
