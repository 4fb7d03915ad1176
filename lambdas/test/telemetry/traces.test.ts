import { OFFLINE_MODEL_ID } from '@service/offline-model';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOtlpReceiver, type ReceivedSpan } from '../support/otlp-receiver';
import { usePlatform } from '../support/platform';
import { command, until, waitForRun } from '../support/runs';
import { sseMessages } from '../support/sse';

// Traces (issue 30 item 4) through real HTTP: a workspace points its spans at an OTLP receiver on loopback; a run
// with a tool call and a widget reply come back as GenAI spans (invoke_agent, chat, execute_tool) with the agent, the
// run or conversation and token usage; contents only when asked; a collector that is down slows nothing and its
// dropped spans are counted.

const ORIGIN = 'http://localhost:3000';
const VENDOR_KEY = 'vendor-key-7f3a9c';
const ctx = usePlatform({ env: { WEBHOOK_ALLOW_LOCAL: '1' } });
let receiver: Awaited<ReturnType<typeof startOtlpReceiver>>;

beforeAll(async () => {
  receiver = await startOtlpReceiver();
});
afterAll(() => receiver?.close());

interface Settings {
  otlp_endpoint: string | null;
  header_names: string[];
  include_content: boolean;
  spans: { exported: number; dropped: number; last_error: string | null };
}
const update = (body: Record<string, unknown>) => ctx.api<{ settings: Settings }>('telemetry/settings_update', { body });
const settings = async () => {
  const response = await ctx.api<{ settings: Settings }>('telemetry/settings_get');
  if (response.status !== 200) throw new Error(`settings_get answered ${response.status}: ${JSON.stringify(response.body)}`);
  return response.body.data.settings;
};

/** The settings, read at most every 250 ms (a condition polled at the API's pace, not its rate limit's). */
const settingsSoon = async () => {
  await sleep(250);
  return settings();
};

const spansWhere = (attribute: string, value: string) => receiver.spans.filter((span) => span.attributes[attribute] === value);
const named = (spans: ReceivedSpan[], prefix: string) => spans.filter((span) => span.name.startsWith(prefix));

async function widgetReply(conversationId: string, content: string) {
  const response = await fetch(`${ctx.platform.url}/v1/agents/${ctx.agentId}/chat`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: ORIGIN },
    body: JSON.stringify({ conversationId, visitorId: crypto.randomUUID(), locale: 'en', messages: [{ role: 'user', content }] }),
  });
  expect(response.status).toBe(200);
  return sseMessages(await response.text());
}

describe('traces of runs and widget replies', () => {
  it('is off by default, and keeps the vendor key write-only', async () => {
    expect(await settings()).toMatchObject({ otlp_endpoint: null, header_names: [], include_content: false });
    const set = await update({ otlp_endpoint: receiver.endpoint, headers: { 'x-vendor-key': VENDOR_KEY } });
    expect(set.status).toBe(200);
    expect(set.body.data.settings).toMatchObject({ otlp_endpoint: receiver.endpoint, header_names: ['x-vendor-key'], include_content: false });
    expect(JSON.stringify(set.body)).not.toContain(VENDOR_KEY);
    expect(JSON.stringify(await settings())).not.toContain(VENDOR_KEY);
  });

  it('refuses an endpoint or a header it must not use, with VALIDATION_ERROR', async () => {
    for (const body of [
      { otlp_endpoint: 'ftp://collector.example.com/v1/traces' },
      { otlp_endpoint: receiver.endpoint, headers: { 'content-type': 'text/plain' } },
      { otlp_endpoint: receiver.endpoint, headers: { 'x-key': 'a\r\nb' } },
    ]) {
      const refused = await update(body);
      expect(refused.status).toBe(400);
      expect((refused.body as unknown as { error: { code: string } }).error.code).toBe('VALIDATION_ERROR');
    }
    expect((await settings()).otlp_endpoint).toBe(receiver.endpoint);
  });

  it('exports a run with a tool call: invoke_agent, chat and execute_tool spans with the run, the agent and token usage', async () => {
    const runId = await command(ctx.api, {
      agent_id: ctx.agentId,
      instruction: 'Please add Jane Doe (jane.doe@example.com) to my contacts.',
      autonomy: 'full',
    });
    expect((await waitForRun(ctx.api, runId)).status).toBe('completed');
    const spans = await until(
      async () => spansWhere('platform.run.id', runId),
      (found) => named(found, 'execute_tool').length > 0 && named(found, 'invoke_agent').length > 0,
    );
    const tool = named(spans, 'execute_tool')[0]!;
    expect(tool.attributes).toMatchObject({ 'gen_ai.operation.name': 'execute_tool', 'gen_ai.agent.id': ctx.agentId });
    expect(String(tool.attributes['gen_ai.tool.name'])).toMatch(/contact/);
    const chat = named(spans, 'chat').find((span) => span.attributes['gen_ai.request.model'] === OFFLINE_MODEL_ID)!;
    expect(chat.name).toBe(`chat ${OFFLINE_MODEL_ID}`);
    expect(chat.attributes['gen_ai.usage.input_tokens']).toEqual(expect.any(Number));
    expect(chat.attributes['gen_ai.usage.output_tokens']).toEqual(expect.any(Number));
    // One trace: the tool call and the model call sit under the agent's invocation.
    const root = named(spans, 'invoke_agent').find((span) => span.traceId === tool.traceId)!;
    expect(root.parentSpanId).toBeUndefined();
    expect(root.attributes['gen_ai.agent.name']).toEqual(expect.any(String));
    // Contents are off: no messages, no tool arguments.
    for (const span of spans) {
      expect(Object.keys(span.attributes).filter((key) => /messages|arguments|call\.result|system_instructions/.test(key))).toEqual([]);
      expect(JSON.stringify(span.attributes)).not.toContain('jane.doe@example.com');
    }
    expect(receiver.headers.at(-1)?.['x-vendor-key']).toBe(VENDOR_KEY);
  });

  it('exports a widget reply with its conversation, and its contents once the workspace turns them on', async () => {
    expect((await update({ otlp_endpoint: receiver.endpoint, include_content: true })).body.data.settings.include_content).toBe(true);
    const conversationId = crypto.randomUUID();
    const events = await widgetReply(conversationId, 'What are your opening hours? marker-4711');
    expect(events.some((event) => event.event === 'done')).toBe(true);
    const spans = await until(
      async () => spansWhere('gen_ai.conversation.id', conversationId),
      (found) => named(found, 'invoke_agent').length > 0 && named(found, 'chat').length > 0,
    );
    expect(named(spans, 'invoke_agent')[0]!.attributes).toMatchObject({ 'gen_ai.agent.id': ctx.agentId, 'gen_ai.operation.name': 'invoke_agent' });
    expect(JSON.stringify(named(spans, 'chat')[0]!.attributes['gen_ai.input.messages'])).toContain('marker-4711');
    // The headers were kept as they were (omitted in the update).
    expect((await settings()).header_names).toEqual(['x-vendor-key']);
  });

  it('neither fails nor waits on a run when the collector is down, and counts the spans it dropped', async () => {
    const before = (await settings()).spans;
    expect(before.exported).toBeGreaterThan(0);
    receiver.down();
    const runId = await command(ctx.api, { agent_id: ctx.agentId, instruction: 'List my tasks.' });
    expect((await waitForRun(ctx.api, runId)).status).toBe('completed');
    const after = await until(settingsSoon, (current) => current.spans.dropped > before.dropped, 30_000);
    expect(after.spans.last_error).toEqual(expect.any(String));
    expect(after.spans.last_error).not.toContain(VENDOR_KEY);
  });

  it('turns off: no span leaves for a reply after otlp_endpoint null', async () => {
    expect((await update({ otlp_endpoint: null })).body.data.settings.otlp_endpoint).toBeNull();
    const conversationId = crypto.randomUUID();
    await widgetReply(conversationId, 'Hello');
    // Turned on again, the next reply's spans arrive: had the first left any, they would have gone before them.
    receiver.up();
    await update({ otlp_endpoint: receiver.endpoint });
    const next = crypto.randomUUID();
    await widgetReply(next, 'Hello again');
    await until(
      async () => spansWhere('gen_ai.conversation.id', next),
      (found) => named(found, 'invoke_agent').length > 0,
    );
    expect(spansWhere('gen_ai.conversation.id', conversationId)).toEqual([]);
  });
});
