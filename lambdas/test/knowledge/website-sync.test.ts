import { verify } from '@service/webhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { usePlatform } from '../support/platform';
import { startReceiver } from '../webhooks/receiver';
import { startDocsSite, type DocsSite } from './docs-site';
import { allDocuments, createSource, getSource, search, waitForSource, type Document } from './helpers';

const PAGES = {
  '/': { title: 'Help center', body: '<p>Welcome to the help center of Example.</p>' },
  '/pricing': {
    title: 'Pricing',
    body: '<h2 id="plans">Plans</h2><p>The Starter plan costs €19 a month. The Partner plan costs €99 a month. There is no Pro plan.</p>',
  },
  '/hours': { title: 'Opening hours', body: '<h2 id="weekdays">Weekdays</h2><p>Support answers from 9:00 to 17:00 on weekdays.</p>' },
  '/refunds': { title: 'Refunds', body: '<p>Refunds are given within 30 days of purchase.</p>' },
  '/shipping': { title: 'Shipping', body: '<p>Parcels leave the warehouse within two days.</p>' },
};

describe('a website source on loopback', () => {
  const ctx = usePlatform({ env: { WEBHOOK_ALLOW_LOCAL: '1' } });
  let site: DocsSite;
  let hooks: Awaited<ReturnType<typeof startReceiver>>;
  let signingSecret = '';
  beforeAll(async () => {
    site = await startDocsSite(PAGES);
    hooks = await startReceiver();
    const subscribed = await ctx.api<{ signing_secret: string }>('webhooks/create/', {
      body: { url: hooks.url, events: ['knowledge.source.synced', 'knowledge.source.failed'] },
    });
    signingSecret = subscribed.body.data.signing_secret;
  });
  afterAll(async () => {
    await site?.close();
    await hooks?.close();
  });
  const eventsOf = (sourceId: string) => hooks.requests.filter((request) => (request.event.data as { source_id?: string }).source_id === sourceId);

  const synced = (after: string | null) => (source: { status: string; last_synced_at: string | null }) =>
    (source.status === 'ready' || source.status === 'failed') && source.last_synced_at !== null && source.last_synced_at !== after;
  const byUrl = (documents: Document[]) => new Map(documents.map((document) => [new URL(document.url!).pathname, document]));

  it('crawls the site, answers from the right section with its anchor, then re-indexes only what changed, was added or vanished', async () => {
    const created = await createSource(ctx.api, { type: 'website', url: site.url, name: 'Help center', sync: 'daily' });
    expect(created.status).toBe('indexing');
    const first = await waitForSource(ctx.api, created.id, synced(null));
    expect(first).toMatchObject({ status: 'ready', documents: 5, error: null });
    expect(first.next_sync_at).not.toBeNull();
    const [best] = await search(ctx.api, 'How much does the Partner plan cost?');
    expect(best).toMatchObject({ title: 'Pricing', url: `${site.url}pricing#plans` });
    expect(best!.text).toContain('€99 a month');
    // Signed, typed in @service/webhooks.
    await hooks.waitFor(() => eventsOf(created.id).length === 1);
    const [delivery] = eventsOf(created.id);
    const event = verify(delivery!.rawBody, delivery!.headers['x-service-signature'] as string, signingSecret, { now: new Date(delivery!.at) });
    expect(event.event === 'knowledge.source.synced' && event.data).toMatchObject({
      source_id: created.id,
      status: 'ready',
      documents: 5,
      changed: 5,
      removed: 0,
      failed: 0,
    });

    const before = byUrl(await allDocuments(ctx.api, created.id));
    site.fullFetches.length = 0;
    // One page changes, one vanishes, one is added.
    site.pages.set('/hours', { title: 'Opening hours', body: '<h2 id="weekdays">Weekdays</h2><p>Support now answers from 8:00 to 20:00, every day.</p>' });
    site.pages.delete('/refunds');
    site.pages.set('/returns', { title: 'Returns', body: '<p>Returns are free for 60 days.</p>' });
    const sync = await ctx.api('knowledge/source_sync/', { body: { source_id: created.id } });
    expect(sync.status).toBe(202);
    const second = await waitForSource(ctx.api, created.id, synced(first.last_synced_at));
    expect(second).toMatchObject({ status: 'ready', documents: 5 });
    await hooks.waitFor(() => eventsOf(created.id).length === 2);
    expect(eventsOf(created.id)[1]!.event.data).toMatchObject({ changed: 2, removed: 1, documents: 5 });
    const after = byUrl(await allDocuments(ctx.api, created.id));
    expect([...after.keys()].sort()).toEqual(['/', '/hours', '/pricing', '/returns', '/shipping']);
    // Unchanged pages answered 304 and kept their index entries. The home page lists one link more: it is fetched again,
    // but its list of links is navigation, not its text, so its text did not change and it is not indexed again.
    const reindexed = [...after]
      .filter(([path, document]) => before.get(path)?.updated_at !== document.updated_at)
      .map(([path]) => path)
      .sort();
    expect(reindexed).toEqual(['/hours', '/returns']);
    expect(site.fullFetches.sort()).toEqual(['/', '/hours', '/returns']);
    expect((await search(ctx.api, 'when does support answer')).find((hit) => hit.title === 'Opening hours')!.text).toContain('8:00 to 20:00');
    expect((await search(ctx.api, 'refunds within 30 days')).map((hit) => hit.title)).not.toContain('Refunds');
    const stores = await ctx.platform.deps.knowledge!();
    expect(await stores.index.countRows(ctx.platform.demo.workspaceId, { documentId: before.get('/refunds')!.id })).toBe(0);

    // Nothing changed: every page answers 304, the unchanged home page still leads to the others, nothing is removed.
    site.fullFetches.length = 0;
    await ctx.api('knowledge/source_sync/', { body: { source_id: created.id } });
    const third = await waitForSource(ctx.api, created.id, synced(second.last_synced_at));
    expect(third).toMatchObject({ status: 'ready', documents: 5, chunks: second.chunks });
    expect(site.fullFetches).toEqual([]);
    expect([...byUrl(await allDocuments(ctx.api, created.id))].map(([path, document]) => [path, document.updated_at])).toEqual(
      [...after].map(([path, document]) => [path, document.updated_at]),
    );
  });

  it('fails a site whose start page is missing, and says why', async () => {
    const source = await createSource(ctx.api, { type: 'website', url: `${site.url}nowhere`, name: 'Missing', sync: 'off' });
    const done = await waitForSource(ctx.api, source.id, synced(null));
    expect(done.status).toBe('failed');
    expect(done.error).toMatch(/indexed|404|crawled/i);
    await hooks.waitFor(() => eventsOf(source.id).length === 1);
    expect(eventsOf(source.id)[0]!.event).toMatchObject({
      event: 'knowledge.source.failed',
      data: { source_id: source.id, status: 'failed', error: done.error },
    });
    expect(await getSource(ctx.api, source.id)).toMatchObject({ documents: 0, next_sync_at: null });
    // A schedule set later counts from now, and taking it away leaves no next sync.
    const scheduled = await ctx.api<{ source: { sync: string; next_sync_at: string | null; name: string } }>('knowledge/source_update/', {
      body: { source_id: source.id, sync: 'daily', name: 'Missing page' },
    });
    expect(scheduled.body.data.source).toMatchObject({ sync: 'daily', name: 'Missing page' });
    expect(Date.parse(scheduled.body.data.source.next_sync_at!) - Date.now()).toBeGreaterThan(23 * 60 * 60 * 1000);
    const unscheduled = await ctx.api<{ source: { sync: string; next_sync_at: string | null } }>('knowledge/source_update/', {
      body: { source_id: source.id, sync: 'off' },
    });
    expect(unscheduled.body.data.source).toMatchObject({ sync: 'off', next_sync_at: null });
  });
});
