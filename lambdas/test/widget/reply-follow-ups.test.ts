import { createParser } from 'eventsource-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPlatform, type RunningPlatform } from '../../src/entries/local/platform';
import { toApiGatewayEvent } from '../../src/entries/local/lambda-event';
import { createWidgetChatHandler } from '../../src/surfaces/widget/chat-handler';
import type { Deps } from '../../src/infra/deps';
import { scriptedModel } from '../support/scripted-model';

// A widget reply ends its stream with `done` or with `error`, never both: what the answer leaves behind (usage,
// insights) is written after `done`, and a failure there must not reach the visitor as an error after the answer.

let platform: RunningPlatform;
beforeAll(async () => {
  platform = await startPlatform({ port: 0 });
});
afterAll(async () => {
  await platform?.stop();
});

const LOCAL = 'http://localhost:3000';

/** The platform's deps, except that every write to the `usage` table fails (and is counted). */
function usageFails(deps: Deps): { deps: Deps; failed: () => number } {
  let failed = 0;
  const send = ((command: { input: { TableName?: string } }) => {
    if (command.input.TableName !== deps.store.table('usage')) return deps.store.doc.send(command as never);
    failed += 1;
    return Promise.reject(new Error('injected fault: the usage table is unavailable'));
  }) as Deps['store']['doc']['send'];
  return { deps: { ...deps, store: { ...deps.store, doc: { ...deps.store.doc, send } as Deps['store']['doc'] } }, failed: () => failed };
}

async function chat(deps: Deps, text: string): Promise<{ event: string; data: Record<string, unknown> }[]> {
  const handler = createWidgetChatHandler(deps, { model: scriptedModel([{ text }]) });
  const body = { conversationId: crypto.randomUUID(), visitorId: crypto.randomUUID(), locale: 'en', messages: [{ role: 'user', content: 'Hello there' }] };
  const event = toApiGatewayEvent(
    { method: 'POST', headers: { 'content-type': 'application/json', origin: LOCAL }, socket: { remoteAddress: '10.9.9.8' } } as never,
    new URL(`${platform.url}/v1/agents/${platform.demo.agentId}/chat`),
    Buffer.from(JSON.stringify(body)),
  );
  let stream = '';
  await handler(event, { start: () => undefined, write: (chunk) => void (stream += chunk), end: () => undefined, signal: new AbortController().signal }, {} as never);
  const seen: { event: string; data: Record<string, unknown> }[] = [];
  createParser({ onEvent: (parsed) => seen.push({ event: parsed.event ?? 'message', data: JSON.parse(parsed.data) }) }).feed(stream);
  return seen;
}

describe('a widget reply whose follow-ups fail', () => {
  it('ends with done and sends no error after it', async () => {
    // Positive control: the same reply with a working store ends with done.
    expect((await chat(platform.deps, 'All fine.')).map((event) => event.event).filter((name) => name === 'done' || name === 'error')).toEqual(['done']);

    const faulty = usageFails(platform.deps);
    const seen = await chat(faulty.deps, 'Answered all the same.');
    expect(faulty.failed()).toBe(1);
    expect(seen.filter((event) => event.event === 'delta').map((event) => event.data.text).join('')).toBe('Answered all the same.');
    expect(seen.map((event) => event.event).filter((name) => name === 'done' || name === 'error')).toEqual(['done']);
  });
});
