import { describe, expect, it } from 'vitest';
import { createSseParser, type SseEvent } from '../../src/core/sse';

describe('the server-sent events parser', () => {
  it('reads events fed in arbitrary pieces, with comments and every line ending', () => {
    const seen: SseEvent[] = [];
    const parser = createSseParser((event) => seen.push(event));
    const stream = ': keep-alive\n\nevent: delta\ndata: {"text":"a"}\n\nevent:done\r\ndata: 1\r\ndata: 2\r\n\r\ndata: plain\r\r\n';
    for (const piece of stream.match(/[\s\S]{1,3}/g)!) parser.feed(piece);
    expect(seen).toEqual([
      { event: 'delta', data: '{"text":"a"}' },
      { event: 'done', data: '1\n2' },
      { event: 'message', data: 'plain' },
    ]);
  });
});
