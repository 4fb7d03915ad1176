import { describe, expect, it } from 'vitest';
import { usePlatform } from '../support/platform';
import { openEventStream } from '../support/sse';
import { liveMessages, localChatUrl, widgetVisitor, type LiveStream } from '../support/widget-visitor';

// One live watcher (infra/shared-poll.ts): however many connections follow a conversation in a process (a visitor's
// tabs, every teammate with it open), the store is polled once for it, and each connection gets every entry.

const ctx = usePlatform();
const STREAMS = 40;

/**
 * Counts the store requests that read one conversation (its `meta` item alone or in a batch, its transcript) through
 * the platform's store client, as the client stack sees them: the document client's keys not yet marshalled.
 */
function countReads(conversationId: string) {
  let reads = 0;
  const name = `reads-${conversationId}`;
  ctx.platform.deps.store.doc.middlewareStack.add(
    (next) => (args) => {
      const input = args.input as {
        Key?: { conversationId?: unknown };
        RequestItems?: Record<string, { Keys?: { conversationId?: unknown }[] }>;
        ExpressionAttributeValues?: Record<string, unknown>;
      };
      const batched = Object.values(input.RequestItems ?? {}).some((request) => request.Keys?.some((key) => key.conversationId === conversationId));
      if (input.Key?.conversationId === conversationId || batched || input.ExpressionAttributeValues?.[':id'] === conversationId) reads += 1;
      return next(args);
    },
    { step: 'initialize', name },
  );
  return {
    take: () => {
      const taken = reads;
      reads = 0;
      return taken;
    },
    stop: () => ctx.platform.deps.store.doc.middlewareStack.remove(name),
  };
}

describe('one live watcher per conversation and process', () => {
  it(`polls once for ${STREAMS} connections on one conversation and delivers a reply to all of them`, async () => {
    const visitor = widgetVisitor(localChatUrl(ctx.platform.url, ctx.agentId));
    await visitor.say('I want to talk to a human');
    const streams: LiveStream[] = Array.from({ length: STREAMS }, (_, index) =>
      index % 2 === 0
        ? visitor.live()
        : openEventStream(`${ctx.platform.apiBaseUrl}/conversations/stream?conversation_id=${visitor.conversationId}`, { 'x-service-api-key': ctx.key }),
    );
    await Promise.all(streams.map((stream) => stream.waitFor(() => stream.events.some((event) => event.event === 'state'))));

    const reads = countReads(visitor.conversationId);
    try {
      const members = await ctx.api<{ members: { user_id: string }[] }>('members/list');
      await ctx.api('conversations/assign', { body: { conversation_id: visitor.conversationId, user_id: members.body.data.members[0]!.user_id } });
      const reply = await ctx.api<{ message: { seq: number } }>('conversations/reply', {
        body: { conversation_id: visitor.conversationId, text: 'Hello everyone' },
      });
      expect(reply.status).toBe(201);
      await Promise.all(streams.map((stream) => stream.waitFor(() => liveMessages(stream).some((message) => message.seq === reply.body.data.message.seq))));
      for (const stream of streams) expect(liveMessages(stream).filter((message) => message.text === 'Hello everyone')).toHaveLength(1);
      // Two changes (joined, the reply) reached every connection through a few shared reads, not reads per connection.
      const shared = reads.take();
      expect(shared, `${shared} reads of the conversation for ${STREAMS} connections`).toBeLessThan(STREAMS / 2);
    } finally {
      reads.stop();
      streams.forEach((stream) => stream.drop());
    }
  });
});
