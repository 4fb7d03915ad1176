import { describe, expect, it } from 'vitest';
import { usePlatform } from '../support/platform';
import { openEventStream } from '../support/sse';
import { liveMessages, localChatUrl, widgetVisitor, type LiveStream } from '../support/widget-visitor';

// One live watcher (infra/shared-poll.ts): however many connections follow a conversation in a process (a visitor's
// tabs, every teammate with it open), the store is polled once for it, and each connection gets every entry.

const ctx = usePlatform();
const STREAMS = 40;

/** Counts the reads of one conversation's `meta` item (the poll's read) the platform's store client makes. */
function countMetaReads(conversationId: string) {
  let reads = 0;
  ctx.platform.deps.store.doc.middlewareStack.add(
    (next, context) => (args) => {
      // The document client's get, as the client stack sees it: GetItem, its key not yet marshalled at this step.
      const key = (args.input as { Key?: { conversationId?: unknown; sk?: unknown } }).Key;
      if (context.commandName === 'GetItemCommand' && key?.conversationId === conversationId && key.sk === 'meta') reads += 1;
      return next(args);
    },
    { step: 'initialize', name: `metaReads-${conversationId}` },
  );
  return {
    take: () => {
      const taken = reads;
      reads = 0;
      return taken;
    },
    stop: () => ctx.platform.deps.store.doc.middlewareStack.remove(`metaReads-${conversationId}`),
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

    const reads = countMetaReads(visitor.conversationId);
    try {
      const members = await ctx.api<{ members: { user_id: string }[] }>('members/list');
      await ctx.api('conversations/assign', { body: { conversation_id: visitor.conversationId, user_id: members.body.data.members[0]!.user_id } });
      const reply = await ctx.api<{ message: { seq: number } }>('conversations/reply', { body: { conversation_id: visitor.conversationId, text: 'Hello everyone' } });
      expect(reply.status).toBe(201);
      await Promise.all(streams.map((stream) => stream.waitFor(() => liveMessages(stream).some((message) => message.seq === reply.body.data.message.seq))));
      for (const stream of streams) expect(liveMessages(stream).filter((message) => message.text === 'Hello everyone')).toHaveLength(1);
      // Two changes (joined, the reply) reached every connection through a few shared reads, not one read per connection.
      const shared = reads.take();
      expect(shared, `${shared} reads of the conversation for ${STREAMS} connections`).toBeLessThan(STREAMS / 2);
    } finally {
      reads.stop();
      streams.forEach((stream) => stream.drop());
    }
  });
});
