import * as lancedb from '@lancedb/lancedb';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { isRetryableConflict, RETRYABLE_CONFLICT } from '../../src/infra/search/lance-conflicts';

/**
 * The index retries an index build or an optimize that lost to another writer's commit by matching LanceDB's words.
 * Two writers of one table at the same version, with the LanceDB the project pins: the second one's compaction and
 * index build are refused with those words, so an upgrade that rewords them fails here and not in production.
 */
describe("LanceDB's commit conflict, as the pinned version words it", () => {
  const folders: string[] = [];
  afterAll(async () => {
    await Promise.all(folders.map((folder) => rm(folder, { recursive: true, force: true })));
  });

  async function twoWritersOfOneVersion() {
    const folder = await mkdtemp(join(tmpdir(), 'lance-conflict-'));
    folders.push(folder);
    const first = await lancedb.connect(folder);
    const table = await first.createTable('pages', [{ id: 'home', text: 'welcome to the help center' }]);
    for (let page = 0; page < 4; page++) await table.add([{ id: `page-${page}`, text: `article ${page} about refunds` }]);
    // The second writer opens the same version and never looks for newer ones (LanceDB's default).
    const stale = await (await lancedb.connect(folder)).openTable('pages');
    await (await first.openTable('pages')).optimize();
    return stale;
  }

  it('refuses a compaction and an index build made on the version another compaction replaced, and the index takes both as retryable', async () => {
    const stale = await twoWritersOfOneVersion();
    const refusals = [
      await stale.optimize().catch((error: unknown) => error),
      await stale.createIndex('text', { config: lancedb.Index.fts() }).catch((error: unknown) => error),
    ];
    for (const refusal of refusals) {
      expect(refusal).toBeInstanceOf(Error);
      expect((refusal as Error).message).toContain(RETRYABLE_CONFLICT);
      expect(isRetryableConflict(refusal)).toBe(true);
    }
    // Any other refusal is not retried.
    const other = await stale.createIndex('no_such_column', { config: lancedb.Index.fts() }).catch((error: unknown) => error);
    expect(other).toBeInstanceOf(Error);
    expect(isRetryableConflict(other)).toBe(false);
  });
});
