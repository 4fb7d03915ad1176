import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { offerWeatherSkill, startBareMcpServer, type BareServer } from '../../../lambdas/test/skills/bare-mcp-server';
import { until } from '../../../lambdas/test/support/runs';
import { scriptedModel } from '../../../lambdas/test/support/scripted-model';
import { embedTag, hostPage, startHarness, W, type Harness } from './harness';

// The visitor stops a reply while the agent waits on a slow tool: the reply ends there, on the page and on the server.

const SEND = '#service-chat .scw-send';
const PARTIAL = 'Let me look up the forecast for Ankara.';

// The second turn is the next message's reply; a stopped reply that went on after its tool call would take it.
const model = scriptedModel([{ text: PARTIAL, toolCalls: [{ toolName: 'weather__forecast', input: { city: 'Ankara' } }] }, { text: 'You are welcome!' }]);

let h: Harness;
let weather: BareServer;
let release!: () => void;
const gate = new Promise<void>((resolve) => (release = resolve));

beforeAll(async () => {
  weather = await startBareMcpServer({ gate: () => gate });
  h = await startHarness({ model, env: { WEBHOOK_ALLOW_LOCAL: '1' } });
  await offerWeatherSkill(h.api, weather, h.agentId, 'public');
});
afterAll(async () => {
  release();
  await h?.stop();
  await weather?.close();
});

describe('the Stop button of the widget', () => {
  it('replaces Send while a reply streams, ends the reply on the server (no further tool call), keeps what was written, and the conversation goes on', async () => {
    const { page, errors } = await h.open(null);
    await hostPage(
      page,
      `${h.platform.url}/test/stop.html`,
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Stop</title></head><body>
      ${embedTag({ 'data-agent-id': h.agentId, 'data-show-delay': '0', 'data-teaser-delay': '60000', 'data-idle-nudge-delay': '0' })}</body></html>`,
    );
    await page.click(W.fab);
    await page.fill(W.input, 'What is the weather in Ankara and Izmir?');
    await page.keyboard.press('Enter');

    // The text streamed so far is on the page while the agent waits on its tool; Stop stands where Send was.
    await page.waitForFunction((text) => document.querySelector('#service-chat')!.shadowRoot!.textContent!.includes(text), PARTIAL);
    await until(
      async () => weather.calls.length,
      (calls) => calls === 1,
    );
    const stop = page.locator(SEND);
    expect(await stop.getAttribute('aria-label')).toBe('Stop');
    expect(await stop.getAttribute('type')).toBe('button');
    await stop.focus();
    await page.keyboard.press('Enter');

    // The reply ends at once (not at the silence timeout), its text kept and marked stopped; Send is back, in focus.
    const reply = page.locator(`${W.botDone}`).last();
    await reply.waitFor();
    expect(await reply.textContent()).toContain(PARTIAL);
    expect(await reply.textContent()).toContain('Stopped');
    expect(await page.locator(SEND).getAttribute('aria-label')).toBe('Send');
    expect(await page.evaluate(() => document.querySelector('#service-chat')!.shadowRoot!.activeElement?.className)).toBe('scw-send');
    await until(
      () => page.locator(W.live).textContent(),
      (said) => said === 'Stopped',
    );

    // The server stored the reply as far as it went, marked stopped.
    const listed = await until(
      () => h.api<{ conversations: { id: string }[] }>('conversations/list/', { query: { agent_id: h.agentId } }),
      (response) => response.body.data.conversations.length === 1,
    );
    const conversationId = listed.body.data.conversations[0]!.id;
    const transcript = await until(
      () => h.api<{ messages: { role: string; text: string; stopped?: boolean }[] }>('conversations/get/', { query: { conversation_id: conversationId } }),
      (response) => response.body.data.messages.length === 2,
    );
    expect(transcript.body.data.messages[1]).toEqual(expect.objectContaining({ role: 'assistant', text: PARTIAL, stopped: true }));

    // The slow tool answers now; a reply that went on would call the model and the tool again. The next message works.
    release();
    await page.fill(W.input, 'Thanks!');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => document.querySelector('#service-chat')!.shadowRoot!.textContent!.includes('You are welcome!'));
    expect(weather.calls).toHaveLength(1);
    expect(model.doStreamCalls).toHaveLength(2);
    // The second model call is the next message's, and the stopped reply is part of what it is told.
    const told = JSON.stringify(model.doStreamCalls[1]!.prompt);
    expect(told).toContain('Thanks!');
    expect(told).toContain(PARTIAL);
    expect(errors).toEqual([]);
    await page.context().close();
  }, 60_000);
});
