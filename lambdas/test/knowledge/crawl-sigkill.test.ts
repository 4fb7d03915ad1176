import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_WORKSPACE_ID } from '../../src/entries/local/seed';
import { openLanceIndex } from '../../src/infra/search/lance-index';
import { crashThenRestart } from '../support/crash-platform';
import { startDocsSite, type DocsSite } from './docs-site';
import { allDocuments, createSource, waitForSource } from './helpers';

const PAGES = Object.fromEntries(
  ['/', '/a', '/b', '/c', '/d', '/e'].map((path, at) => [
    path,
    { title: `Page ${at}`, body: `<h2 id="s">Section</h2><p>Fact number ${at} about the heron colony.</p>` },
  ]),
);

describe('a crawl killed with SIGKILL', () => {
  let site: DocsSite;
  beforeAll(async () => {
    site = await startDocsSite(PAGES);
  });
  afterAll(async () => {
    await site?.close();
  });

  it('resumes on the restarted platform without losing or duplicating a document', async () => {
    let sourceId = '';
    let dataDir = '';
    await crashThenRestart(
      // The first page's document is stored, and the machine dies before the page is marked done or its links queued.
      // Its messages come back 3 s after a claim (not 30 s): the restarted platform takes the page again soon.
      { CRASH_AFTER: 'PutCommand:knowledge-documents', WEBHOOK_ALLOW_LOCAL: '1', QUEUE_VISIBILITY_MS: 'knowledge=3000' },
      // Restarted past the page's lease, so the redelivered message may take the page again.
      { CLOCK_SHIFT_MS: String(3 * 60 * 1000), WEBHOOK_ALLOW_LOCAL: '1' },
      async (api) => {
        sourceId = (await createSource(api, { type: 'website', url: site.url, sync: 'off' })).id;
      },
      async (api, _agentId, directory) => {
        dataDir = directory;
        const source = await waitForSource(api, sourceId, (current) => current.status === 'ready', 80_000);
        const documents = await allDocuments(api, sourceId);
        expect(documents.map((document) => new URL(document.url!).pathname).sort()).toEqual(Object.keys(PAGES).sort());
        expect(documents.every((document) => document.status === 'indexed')).toBe(true);
        expect(source).toMatchObject({ documents: 6, chunks: documents.reduce((sum, document) => sum + document.chunks, 0) });
        // The index holds each document once: its parent row and one row per passage, nothing twice.
        const index = await openLanceIndex(`${dataDir}/knowledge/index`);
        try {
          expect(await index.countRows(DEMO_WORKSPACE_ID, { sourceId })).toBe(documents.reduce((sum, document) => sum + document.chunks + 1, 0));
        } finally {
          index.close();
        }
      },
    );
  }, 150_000);
});
