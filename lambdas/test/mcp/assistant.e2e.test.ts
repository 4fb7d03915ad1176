import { Client, StreamableHTTPClientTransport, UnauthorizedError, type OAuthClientProvider } from '@modelcontextprotocol/client';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer as createHttpServer, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../../../test/browser/chromium';
import type { RunningPlatform } from '../../src/entries/local/platform';
import { startTestPlatform } from '../support/platform';
import { mailedCode } from './oauth-flow';

/** Screenshots of the consent page and the connection in the dashboard, saved by the run (gitignored). */
const SHOTS = join(import.meta.dirname, '../../../test-results/mcp');

/**
 * An assistant as users meet it: the official MCP SDK client with its OAuth client provider discovers the server,
 * registers (by a Client ID Metadata Document, or by Dynamic Client Registration), and sends the person to the
 * browser, where they sign in with the e-mailed code, pick the workspace and approve permissions one by one.
 */

const listen = (server: Server) => new Promise<number>((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)));

/** A self-signed certificate for localhost, made for this run (the metadata document must be served over https). */
function localhostCertificate() {
  const dir = mkdtempSync(join(tmpdir(), 'cimd-'));
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-days',
      '1',
      '-subj',
      '/CN=localhost',
      '-addext',
      'subjectAltName=DNS:localhost',
      '-keyout',
      join(dir, 'key.pem'),
      '-out',
      join(dir, 'cert.pem'),
    ],
    { stdio: 'ignore' },
  );
  const pair = { key: readFileSync(join(dir, 'key.pem'), 'utf8'), cert: readFileSync(join(dir, 'cert.pem'), 'utf8') };
  rmSync(dir, { recursive: true, force: true });
  return pair;
}

/** The assistant's side of OAuth, kept in memory; the browser does what the person does. */
class AssistantProvider implements OAuthClientProvider {
  private info: Awaited<ReturnType<OAuthClientProvider['clientInformation']>>;
  private saved: Awaited<ReturnType<OAuthClientProvider['tokens']>>;
  private verifier = '';
  /** Where the browser came back to (code, state, iss), for transport.finishAuth. */
  callback?: URLSearchParams;
  authorizations = 0;

  constructor(
    readonly redirectUrl: string,
    private readonly consentInBrowser: (url: URL) => Promise<URLSearchParams>,
    readonly clientMetadataUrl?: string,
  ) {}

  get clientMetadata() {
    return {
      client_name: this.clientMetadataUrl ? 'Metadata Assistant' : 'Registered Assistant',
      redirect_uris: [this.redirectUrl],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
  }
  clientInformation() {
    return this.info;
  }
  saveClientInformation(info: NonNullable<typeof this.info>) {
    this.info = info;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: NonNullable<typeof this.saved>) {
    this.saved = tokens;
  }
  async redirectToAuthorization(url: URL) {
    this.authorizations += 1;
    this.callback = await this.consentInBrowser(url);
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    return this.verifier;
  }
}

describe('an assistant connects through the official MCP SDK client and the browser', () => {
  let platform: RunningPlatform;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let origin: string;
  let callbackServer: Server;
  let documentServer: Server;
  let redirectUrl: string;
  let documentUrl: string;
  let signedIn = false;
  /** What the person ticks on the next consent page. */
  let permissions: string[] = [];
  /** The consent pages the person saw, as text. */
  const consentTexts: string[] = [];

  beforeAll(async () => {
    const certificate = localhostCertificate();
    callbackServer = createHttpServer((_, response) =>
      response.writeHead(200, { 'content-type': 'text/html' }).end('<title>Connected</title>You can close this window.'),
    );
    redirectUrl = `http://127.0.0.1:${await listen(callbackServer)}/callback`;
    // The client's metadata document, served over https as a client would publish it (here on loopback: the test-only
    // CLIENT_METADATA_ALLOW_LOCAL lets the platform reach it and CLIENT_METADATA_CA trusts this run's certificate).
    documentServer = createHttpsServer(certificate, (request, response) => {
      if (request.url !== '/assistant/client.json') return void response.writeHead(404).end();
      response.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'max-age=60' }).end(
        JSON.stringify({
          client_id: documentUrl,
          client_name: 'Metadata Assistant',
          client_uri: 'https://localhost/assistant',
          redirect_uris: [redirectUrl],
          grant_types: ['authorization_code', 'refresh_token'],
          response_types: ['code'],
          token_endpoint_auth_method: 'none',
        }),
      );
    });
    documentUrl = `https://localhost:${await listen(documentServer)}/assistant/client.json`;
    [platform, browser] = await Promise.all([
      startTestPlatform({ env: { CLIENT_METADATA_ALLOW_LOCAL: '1', CLIENT_METADATA_CA: certificate.cert } }),
      launchChromium(),
    ]);
    origin = `http://localhost:${new URL(platform.url).port}`;
    context = await browser.newContext();
    page = await context.newPage();
    page.setDefaultTimeout(15_000);
  }, 60_000);

  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await platform?.stop();
    callbackServer?.close();
    documentServer?.close();
  });

  /** The person in the browser: signs in on the first visit (e-mailed code), picks the workspace, ticks permissions. */
  async function consentInBrowser(url: URL): Promise<URLSearchParams> {
    await page.goto(url.href);
    if (!signedIn) {
      await page.waitForURL(/\/dashboard\//);
      await page
        .getByLabel(/e-mail/i)
        .first()
        .fill(platform.demo.ownerEmail);
      await page.keyboard.press('Enter');
      let code = '';
      await expect.poll(async () => (code = await mailedCode(origin, platform.demo.ownerEmail).catch(() => '')), { timeout: 10_000 }).not.toBe('');
      await page.getByLabel(/6-digit code/).fill(code);
      await page.getByRole('button', { name: 'Sign in', exact: true }).click();
      signedIn = true;
    }
    await page.waitForURL(/\/oauth\/authorize/);
    expect(await page.locator('input[type=checkbox]:checked').count()).toBe(0);
    expect(await page.locator('input[type=radio]:checked').count()).toBe(0);
    consentTexts.push(await page.locator('main').innerText());
    await page.screenshot({ path: join(SHOTS, `consent-${consentTexts.length}.png`), fullPage: true });
    await page.getByRole('radio', { name: /Demo/ }).check();
    for (const permission of permissions) await page.locator(`input[name="perm_${permission.replace(':', '_')}"]`).check();
    await page.getByRole('button', { name: 'Allow' }).click();
    await page.waitForURL(/127\.0\.0\.1:\d+\/callback/);
    return new URL(page.url()).searchParams;
  }

  /** Runs a client operation; when it needs the person (401 or a step-up 403), finishes the authorization and retries. */
  async function withAuthorization<T>(provider: AssistantProvider, transport: StreamableHTTPClientTransport, operation: () => Promise<T>): Promise<T> {
    try {
      return await operation();
    } catch (error) {
      if (!(error instanceof UnauthorizedError) || !provider.callback) throw error;
      const callback = provider.callback;
      provider.callback = undefined;
      await transport.finishAuth(callback);
      return operation();
    }
  }

  /** `modern`: the 2026-07-28 revision (server/discover, per-request envelope); otherwise the client's default 2025 handshake. */
  async function connectAssistant(provider: AssistantProvider, modern = false) {
    const options = modern ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {};
    const transport = new StreamableHTTPClientTransport(new URL(`${origin}/mcp`), { authProvider: provider });
    const client = new Client({ name: 'e2e-assistant', version: '1.0.0' }, options);
    try {
      await client.connect(transport);
    } catch (error) {
      if (!(error instanceof UnauthorizedError) || !provider.callback) throw error;
      await transport.finishAuth(provider.callback);
      provider.callback = undefined;
      const again = new StreamableHTTPClientTransport(new URL(`${origin}/mcp`), { authProvider: provider });
      const connected = new Client({ name: 'e2e-assistant', version: '1.0.0' }, options);
      await connected.connect(again);
      return { client: connected, transport: again };
    }
    return { client, transport };
  }

  it('registers by a Client ID Metadata Document, lists and asks agents, steps up for an action, and stops when withdrawn in the dashboard', async () => {
    permissions = ['agents:read', 'agents:ask', 'offline_access'];
    const provider = new AssistantProvider(redirectUrl, consentInBrowser, documentUrl);
    const { client, transport } = await connectAssistant(provider, true);
    expect(provider.clientInformation()?.client_id).toBe(documentUrl);
    expect(consentTexts.at(-1)).toContain('Connect Metadata Assistant to your agents');
    expect(consentTexts.at(-1)).toContain('Verified domain: localhost');
    expect(consentTexts.at(-1)).toContain(redirectUrl);
    expect(consentTexts.at(-1)).not.toContain('Real-world actions');
    expect(await page.content()).toContain('You can close this window');

    // This assistant speaks the newest revision; the other one below the 2025 handshake, served by the same handler.
    expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28');
    const tools = await client.listTools();
    expect(tools.tools.map((tool) => tool.name).sort()).toEqual([
      'approve_run',
      'ask_agent',
      'cancel_run',
      'get_run',
      'list_agents',
      'list_conversations',
      'list_runs',
      'reject_run',
      'reply_conversation',
    ]);
    const agents = await client.callTool({ name: 'list_agents', arguments: {} });
    const agentId = (agents.structuredContent as { agents: { id: string; name: string }[] }).agents[0]!.id;
    const answer = await client.callTool({ name: 'ask_agent', arguments: { agent_id: agentId, instruction: 'What can you do for me?' } });
    expect(answer.structuredContent).toMatchObject({ status: 'completed', autonomy: 'read_only', done: true });

    // An action needs agents:act, which was not approved: the server answers 403 insufficient_scope, the client asks
    // the person again (step-up), and this time they approve real-world actions too.
    const ask = () =>
      client.callTool({ name: 'ask_agent', arguments: { agent_id: agentId, instruction: 'Create a task to call Ada back', allow_actions: true } });
    permissions = ['agents:read', 'agents:ask', 'agents:act', 'offline_access'];
    const before = provider.authorizations;
    const acted = await withAuthorization(provider, transport, ask);
    expect(provider.authorizations).toBe(before + 1);
    expect(acted.structuredContent).toMatchObject({ autonomy: 'full' });
    expect(provider.tokens()?.scope).toContain('agents:act');
    expect(consentTexts.at(-1)).toContain('Real-world actions');

    // Withdrawn in the dashboard (Developers › MCP connections): the next call fails and the refresh token is refused.
    await page.goto(`${origin}/dashboard/#/developers/mcp`);
    const row = page.getByRole('row', { name: /Metadata Assistant/ });
    await row.waitFor();
    // Its audit trail: the recent calls, with the tool and the run each started.
    await row.getByRole('button', { name: /calls?$/ }).click();
    await page
      .getByRole('table', { name: /Recent calls of Metadata Assistant/ })
      .getByRole('cell', { name: 'ask_agent', exact: true })
      .first()
      .waitFor();
    await page.screenshot({ path: join(SHOTS, 'mcp-connections-connected.png'), fullPage: true });
    await row.getByRole('button', { name: 'Withdraw' }).click();
    await page.getByText('No assistant is connected.').waitFor();
    provider.redirectToAuthorization = async () => {
      throw new Error('withdrawn: the assistant must ask the person again');
    };
    await expect(client.callTool({ name: 'list_agents', arguments: {} })).rejects.toThrow();
    await client.close();
  }, 120_000);

  it('registers by Dynamic Client Registration and is refused an action until the person approves it', async () => {
    permissions = ['agents:read', 'agents:ask'];
    const provider = new AssistantProvider(redirectUrl, consentInBrowser);
    const { client, transport } = await connectAssistant(provider);
    expect(provider.clientInformation()?.client_id).toMatch(/^mcpc_/);
    expect(client.getNegotiatedProtocolVersion()).toBe('2025-11-25');
    expect(consentTexts.at(-1)).toContain('Registered itself; its domain is not verified');
    const agents = await client.callTool({ name: 'list_agents', arguments: {} });
    expect((agents.structuredContent as { agents: unknown[] }).agents.length).toBeGreaterThan(0);
    const agentId = (agents.structuredContent as { agents: { id: string }[] }).agents[0]!.id;
    // The person declines the step-up this time (approves nothing new): the action stays refused.
    permissions = ['agents:read'];
    await expect(
      withAuthorization(provider, transport, () =>
        client.callTool({ name: 'ask_agent', arguments: { agent_id: agentId, instruction: 'Send a mail', allow_actions: true } }),
      ),
    ).rejects.toThrow(/403|insufficient|Unauthorized|authoriz/i);
    await client.close();
  }, 120_000);
});
