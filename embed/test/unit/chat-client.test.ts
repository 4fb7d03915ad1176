import { describe, expect, it } from 'vitest';
import { ChatError, streamChat, type ChatStreamHandlers } from '../../src/core/chat-client';

// The chat reply as the widget reads it: server-sent events in any pieces, from a fetch with streams or without.

const REPLY =
  ': keep-alive\n\nevent: delta\ndata: {"text":"Hel"}\n\nevent:delta\r\ndata: {"text":"lo"}\r\n\r\nevent: navigate\ndata: {"href":"/pricing"}\n\nevent: done\ndata: {}\n\n';

function recorder() {
  const seen: string[] = [];
  const handlers: ChatStreamHandlers = {
    onDelta: (text) => seen.push(`delta ${text}`),
    onNavigate: (href) => seen.push(`navigate ${href}`),
    onUiAction: (action) => seen.push(`uiAction ${action.target}`),
    onConfirm: (confirm) => seen.push(`confirm ${confirm.actionId}`),
  };
  return { seen, handlers };
}

/** A response whose body arrives in 3-character pieces. */
const streamed = (text: string) =>
  new Response(
    new ReadableStream({
      start(controller) {
        for (const piece of text.match(/[\s\S]{1,3}/g)!) controller.enqueue(new TextEncoder().encode(piece));
        controller.close();
      },
    }),
  );

/** What a fetch polyfill over XMLHttpRequest answers: the whole text, and no `body` stream. */
const polyfilled = (text: string, status = 200) =>
  ({ ok: status < 300, status, statusText: '', body: undefined, text: () => Promise.resolve(text) }) as unknown as Response;

const connection = (respond: () => Response) => ({ fetch: () => Promise.resolve(respond()), idleTimeoutMs: 5000, signal: new AbortController().signal });

describe('the chat client', () => {
  it('reads the events of a streamed reply fed in arbitrary pieces, comments and every line ending included', async () => {
    const { seen, handlers } = recorder();
    await expect(
      streamChat(
        '/chat',
        { messages: [] } as never,
        handlers,
        connection(() => streamed(REPLY)),
      ),
    ).resolves.toEqual({ text: 'Hello' });
    expect(seen).toEqual(['delta Hel', 'delta lo', 'navigate /pricing']);
  });

  it('reads the whole reply from a fetch without streams (a host page polyfill)', async () => {
    const { seen, handlers } = recorder();
    await expect(
      streamChat(
        '/chat',
        { messages: [] } as never,
        handlers,
        connection(() => polyfilled(REPLY.replace('done\ndata: {}', 'done\ndata: {"messageId":"msg_000002"}'))),
      ),
    ).resolves.toEqual({ text: 'Hello', messageId: 'msg_000002' });
    expect(seen).toEqual(['delta Hel', 'delta lo', 'navigate /pricing']);
  });

  it('rejects with the error event of the stream, and with the envelope code of a refused request', async () => {
    const failed = 'event: delta\ndata: {"text":"x"}\n\nevent: error\ndata: {"code":"MODEL_ERROR","message":"no"}\n\n';
    await expect(
      streamChat(
        '/chat',
        { messages: [] } as never,
        recorder().handlers,
        connection(() => polyfilled(failed)),
      ),
    ).rejects.toMatchObject({ code: 'MODEL_ERROR' });
    const refused = polyfilled(JSON.stringify({ error: { code: 'RATE_LIMITED', message: 'slow down' } }), 429);
    await expect(
      streamChat(
        '/chat',
        { messages: [] } as never,
        recorder().handlers,
        connection(() => refused),
      ),
    ).rejects.toBeInstanceOf(ChatError);
    await expect(
      streamChat(
        '/chat',
        { messages: [] } as never,
        recorder().handlers,
        connection(() => refused),
      ),
    ).rejects.toMatchObject({ code: 'RATE_LIMITED' });
  });

  it('rejects a reply that ends without done', async () => {
    await expect(
      streamChat(
        '/chat',
        { messages: [] } as never,
        recorder().handlers,
        connection(() => streamed('event: delta\ndata: {"text":"x"}\n\n')),
      ),
    ).rejects.toMatchObject({ code: 'STREAM_INTERRUPTED' });
  });
});
