import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getSourceItem } from '../../src/domains/knowledge/source-repository';
import type { QueueSender } from '../../src/infra/queue/queue';
import { usePlatform } from '../support/platform';
import { startDocsSite, type DocsSite } from './docs-site';
import { allDocuments, createSource, search, waitForSource, type Source } from './helpers';

/**
 * A re-sync of a site of 130 pages found through its sitemap, with searches running the whole time. Most pages answer
 * 304 at once on a re-sync, so the consumer can catch up with the loop that queues the sitemap's pages. The test makes
 * it catch up every time: halfway through that loop, queueing waits until every page queued so far has been handled.
 * A sync that ended there would remove the pages not yet seen and never index the page added last in the sitemap.
 */
const PAGE_COUNT = 130;
const pathOf = (n: number) => `/article-${String(n).padStart(3, '0')}`;
/** A word found on one page only, so a search for it names that page. */
const markOf = (n: number) => `zq${String(n).padStart(3, '0')}marker`;
const article = (n: number, fact = `The answer to question ${n} is written here.`) => ({
  title: `Article ${n}`,
  body: `<h2>Question ${n}</h2><p>${fact} Look for ${markOf(n)}.</p>`,
});

describe('a re-sync of a large site under concurrent searches', () => {
  // Searches run back to back during the sync: the rate limit is the only thing they must not meet.
  const ctx = usePlatform({ env: { WEBHOOK_ALLOW_LOCAL: '1', RATE_LIMIT_PER_MINUTE: '100000' } });
  let site: DocsSite;
  beforeAll(async () => {
    const pages: Record<string, { title: string; body: string }> = { '/': { title: 'Help center', body: '<p>Welcome to the help center.</p>' } };
    for (let n = 1; n <= PAGE_COUNT; n++) pages[pathOf(n)] = article(n);
    site = await startDocsSite(pages, { homeLinks: false });
  });
  afterAll(async () => {
    await site?.close();
  });

  const synced = (after: string | null) => (source: Source) => source.status !== 'indexing' && source.status !== 'queued' && source.last_synced_at !== after;
  const titlesFor = async (query: string) => (await search(ctx.api, query, { limit: 5 })).map((hit) => hit.title);

  /** Halfway through queueing a later sync's pages, waits after one is sent until the knowledge queue holds nothing but that sync's own message. */
  function catchUpHalfway(firstSyncId: string): () => void {
    const queue = ctx.platform.deps.queue as QueueSender & { depth(queue: string): Promise<number> };
    const send = queue.send.bind(queue);
    let sent = 0;
    queue.send = async (name, body, options) => {
      await send(name, body, options);
      const message = body as { type?: string; syncId?: string };
      if (name === 'knowledge' && message.type === 'page' && message.syncId !== firstSyncId && ++sent === Math.floor(PAGE_COUNT / 2)) {
        const deadline = Date.now() + 60_000;
        while ((await queue.depth('knowledge')) > 1) {
          if (Date.now() > deadline) throw new Error('the pages queued so far were never handled');
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
      }
    };
    return () => {
      queue.send = send;
    };
  }

  it('keeps every page that still exists, indexes the changed and the added one, removes the removed one, and says indexing until all are searchable', async () => {
    const created = await createSource(ctx.api, { type: 'website', url: `${site.url}sitemap.xml`, name: 'Large help center', sync: 'off' });
    const first = await waitForSource(ctx.api, created.id, synced(null), 120_000);
    expect(first).toMatchObject({ status: 'ready', documents: PAGE_COUNT + 1, error: null });
    expect((await titlesFor(markOf(42)))[0]).toBe('Article 42');
    const firstSyncId = (await getSourceItem(ctx.platform.deps, ctx.platform.demo.workspaceId, created.id))!.syncId!;

    // One page changes, one is removed, one is added as the sitemap's last entry; one answers 503 for the whole sync.
    const changed = 17;
    const removed = 42;
    const busy = 99;
    site.pages.set(pathOf(changed), article(changed, 'This article was rewritten: the new fact is that parcels fly by drone.'));
    site.pages.delete(pathOf(removed));
    const added = PAGE_COUNT + 1;
    site.pages.set(pathOf(added), article(added, 'A brand new article about gift cards.'));
    site.unavailable.add(pathOf(busy));

    let searching = true;
    const searches = (async () => {
      let count = 0;
      while (searching) {
        await titlesFor(markOf(1 + (count % PAGE_COUNT)));
        count += 1;
      }
      return count;
    })();
    const restore = catchUpHalfway(firstSyncId);
    try {
      const sync = await ctx.api('knowledge/source_sync/', { body: { source_id: created.id } });
      expect(sync.status).toBe(202);
      const second = await waitForSource(ctx.api, created.id, synced(first.last_synced_at), 120_000);
      // Read at once, as a caller would: `ready` means every page of the sync is searchable now.
      const [documents, addedTitles, changedTitles, removedTitles, busyTitles] = await Promise.all([
        allDocuments(ctx.api, created.id),
        titlesFor(markOf(added)),
        titlesFor('parcels fly by drone'),
        titlesFor(markOf(removed)),
        titlesFor(markOf(busy)),
      ]);
      const paths = documents.map((document) => new URL(document.url!).pathname).sort();
      const expected = ['/', ...Array.from({ length: PAGE_COUNT + 1 }, (_, at) => pathOf(at + 1)).filter((path) => path !== pathOf(removed))].sort();
      expect(paths).toEqual(expected);
      expect(second).toMatchObject({ status: 'ready', documents: PAGE_COUNT + 1, error: null });
      expect(addedTitles[0]).toBe(`Article ${added}`);
      expect(changedTitles[0]).toBe(`Article ${changed}`);
      expect(removedTitles).not.toContain(`Article ${removed}`);
      // A page that could not be fetched this time is not gone: it keeps what the last sync indexed.
      expect(busyTitles[0]).toBe(`Article ${busy}`);
      expect(documents.find((document) => document.url!.endsWith(pathOf(busy)))).toMatchObject({ status: 'indexed' });
      // Every other page is still found by its own word.
      for (let n = 1; n <= PAGE_COUNT; n++) {
        if (n === removed) continue;
        expect((await titlesFor(markOf(n)))[0], `page ${n}`).toBe(`Article ${n}`);
      }
    } finally {
      restore();
      searching = false;
      expect(await searches).toBeGreaterThan(0);
    }
  }, 300_000);
});
