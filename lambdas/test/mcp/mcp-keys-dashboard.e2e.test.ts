import { Client, StreamableHTTPClientTransport, UnauthorizedError } from '@modelcontextprotocol/client';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../../../test/browser/chromium';
import type { RunningPlatform } from '../../src/entries/local/platform';
import { addPerson } from '../people/helpers';
import { apiClient, newDemoKey, startTestPlatform } from '../support/platform';
import { signIn } from './oauth-flow';

/** Screenshots of the MCP keys on the dashboard's MCP connections screen, saved by the run (gitignored). */
const SHOTS = join(import.meta.dirname, '../../../test-results/mcp');
const MEMBER_EMAIL = 'staff@demo.example';

/**
 * MCP keys as a person makes them: Developers › MCP connections in the dashboard (real Chromium), the key shown once,
 * then used by a headless agent through the official MCP SDK client, and revoked from the same screen.
 */
describe('MCP keys on the dashboard’s MCP connections screen', () => {
  const apiKey = newDemoKey();
  let platform: RunningPlatform;
  let browser: Browser;
  let origin: string;

  beforeAll(async () => {
    [platform, browser] = await Promise.all([startTestPlatform({ env: { SERVICE_DEMO_API_KEY: apiKey } }), launchChromium()]);
    origin = `http://localhost:${new URL(platform.url).port}`;
    await addPerson(platform, MEMBER_EMAIL, 'member');
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await platform?.stop();
  });

  /** The screen, for a person signed in by e-mailed code (the session cookie handed to the browser). */
  async function screenFor(email: string): Promise<Page> {
    const [name, ...value] = (await signIn(origin, email)).split('=');
    const context = await browser.newContext();
    await context.addCookies([{ name: name!, value: value.join('='), url: origin }]);
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    await page.goto(`${origin}/dashboard/#/developers/mcp`);
    await page.getByRole('heading', { name: 'MCP keys for headless agents' }).waitFor();
    return page;
  }

  async function headlessAgent(secret: string): Promise<Client> {
    const client = new Client({ name: 'nightly-ci', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL('/mcp', origin), { authProvider: { token: async () => secret } }));
    return client;
  }

  it('an owner makes a key for reading one agent, copies it once, an agent uses it, and revoking it stops its next call', async () => {
    const page = await screenFor(platform.demo.ownerEmail);
    const form = page.locator('form', { has: page.getByRole('button', { name: 'Create MCP key' }) });
    await form.getByLabel('Key name').fill('Nightly CI');
    await form.getByRole('checkbox', { name: /^Ask agents/ }).uncheck();
    expect(await form.getByRole('checkbox', { name: /^Read agents and runs/ }).isChecked()).toBe(true);
    const agentBox = form
      .getByRole('group', { name: /Agents it may reach/ })
      .getByRole('checkbox')
      .first();
    const agentName = (await agentBox.locator('xpath=..').innerText()).trim();
    await agentBox.check();
    await page.getByRole('button', { name: 'Create MCP key' }).click();

    const shown = page.getByRole('region', { name: 'Your new MCP key' });
    const secret = (await shown.locator('code').innerText()).trim();
    expect(secret).toMatch(/^mcp_live_[0-9A-Za-z]{40}$/);
    await shown.getByRole('button', { name: 'I have saved it' }).click();
    await shown.waitFor({ state: 'detached' });
    expect(await page.content()).not.toContain(secret);
    const row = page.getByRole('row', { name: /Nightly CI/ });
    await expect.poll(() => row.innerText()).toContain(`${secret.slice(0, 13)}…${secret.slice(-4)}`);
    expect(await row.innerText()).toContain(agentName);
    expect(await row.innerText()).toContain(platform.demo.ownerEmail);

    const client = await headlessAgent(secret);
    const listed = await client.callTool({ name: 'list_agents', arguments: {} });
    expect((listed.structuredContent as { agents: Array<{ name: string }> }).agents.map((agent) => agent.name)).toEqual([agentName]);
    await expect(client.callTool({ name: 'ask_agent', arguments: { agent_id: platform.demo.agentId, instruction: 'Hello' } })).rejects.toThrow(
      /Insufficient scope/,
    );

    // Its audit trail, as a connection's: the screen loaded again shows the call once it is recorded.
    // A reload takes seconds on a busy machine: poll for longer than expect.poll's default second.
    await expect
      .poll(
        async () => {
          await page.reload();
          return row.getByRole('button', { name: /calls?$/ }).innerText();
        },
        { timeout: 20_000 },
      )
      .toBe('1 call');
    await row.getByRole('button', { name: '1 call' }).click();
    await page.getByRole('table', { name: 'Recent calls of Nightly CI' }).getByRole('cell', { name: 'list_agents', exact: true }).waitFor();
    await page.screenshot({ path: join(SHOTS, 'mcp-keys.png'), fullPage: true });

    await row.getByRole('button', { name: 'Revoke Nightly CI' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Revoke key' }).click();
    await row.getByText(/^Revoked/).waitFor();
    await expect(client.callTool({ name: 'list_agents', arguments: {} })).rejects.toBeInstanceOf(UnauthorizedError);
    await client.close();
  }, 90_000);

  it('a member sees the keys, with every control that makes or revokes one disabled', async () => {
    const made = await apiClient(platform.apiBaseUrl, apiKey)<{ key: { id: string } }>('connections/key_create/', {
      body: { name: 'Server assistant', scopes: ['agents:read'] },
    });
    expect(made.status).toBe(201);
    const page = await screenFor(MEMBER_EMAIL);
    await page.getByText('creating or revoking MCP keys needs an admin or owner').waitFor();
    const form = page.locator('form', { has: page.getByRole('button', { name: 'Create MCP key' }) });
    expect(await page.getByRole('button', { name: 'Create MCP key' }).isDisabled()).toBe(true);
    expect(await form.getByLabel('Key name').isDisabled()).toBe(true);
    for (const box of await form.getByRole('checkbox').all()) expect(await box.isDisabled()).toBe(true);
    const row = page.getByRole('row', { name: /Server assistant/ });
    expect(await row.getByRole('button', { name: 'Revoke Server assistant' }).isDisabled()).toBe(true);
  }, 60_000);
});
