import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect, Index } from '@lancedb/lancedb';
import { Field, Schema, Utf8 } from 'apache-arrow';
import { afterAll, describe, expect, it } from 'vitest';
import { openLanceIndex } from '../../src/infra/search/lance-index';

// A knowledge index written by an earlier release kept parents and passages in columns of their own
// (`parent_<language>`, `passage_<language>`): it must go on answering, and take writes, after the upgrade.

const WORKSPACE = '00000000-0000-4000-8000-00000000c0de';
const folder = mkdtempSync(join(tmpdir(), 'index-layout-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

const EARLIER_TEXT_COLUMNS = ['en', 'tr', 'neutral', 'ngram'].flatMap((language) => [`parent_${language}`, `passage_${language}`]);

async function writeEarlierLayout(): Promise<void> {
  const db = await connect(folder);
  const utf8 = (name: string, nullable = false) => new Field(name, new Utf8(), nullable);
  const schema = new Schema([
    ...['row_id', 'document_id', 'source_id', 'name', 'title', 'text'].map((name) => utf8(name)),
    utf8('url', true),
    ...EARLIER_TEXT_COLUMNS.map((name) => utf8(name, true)),
  ]);
  const row = (documentId: string, suffix: string, column: string, text: string) => ({
    row_id: `${documentId}#${suffix}`,
    document_id: documentId,
    source_id: 'src_old',
    name: `${documentId}.md`,
    title: documentId,
    text,
    url: null,
    ...Object.fromEntries(EARLIER_TEXT_COLUMNS.map((name) => [name, name === column ? text : null])),
  });
  const table = await db.createTable(
    `ws_${WORKSPACE.replace(/-/g, '')}`,
    [
      row('doc_refunds', 'doc', 'parent_en', 'Refunds\nEvery first payment can be refunded within 30 days.'),
      row('doc_refunds', '0', 'passage_en', 'Refunds\nEvery first payment can be refunded within 30 days.'),
      row('doc_hours', 'doc', 'parent_en', 'Opening hours\nWe answer on weekdays from nine to five.'),
      row('doc_hours', '0', 'passage_en', 'Opening hours\nWe answer on weekdays from nine to five.'),
    ],
    { schema },
  );
  for (const column of ['parent_en', 'passage_en'])
    await table.createIndex(column, { config: Index.fts({ language: 'English', stem: true, removeStopWords: true }) });
  db.close();
}

describe('an index of the earlier layout', () => {
  it('is searched and written after the upgrade, its kind columns merged into one column per language', async () => {
    await writeEarlierLayout();
    const index = await openLanceIndex(folder);
    try {
      const [hit] = await index.search(WORKSPACE, { text: 'can I get a refund', limit: 3 });
      expect(hit).toMatchObject({ documentId: 'doc_refunds', text: expect.stringContaining('within 30 days') });

      await index.replaceDocument(WORKSPACE, 'doc_plans', [
        {
          rowId: 'doc_plans#doc',
          documentId: 'doc_plans',
          sourceId: 'src_new',
          kind: 'parent',
          language: 'en',
          searchText: 'Plans\nStarter costs 19 euros a month.',
          name: 'plans.md',
          url: null,
          title: 'Plans',
          text: 'Starter costs 19 euros a month.',
        },
        {
          rowId: 'doc_plans#0',
          documentId: 'doc_plans',
          sourceId: 'src_new',
          kind: 'passage',
          language: 'en',
          searchText: 'Plans\nStarter costs 19 euros a month.',
          name: 'plans.md',
          url: null,
          title: 'Plans',
          text: 'Starter costs 19 euros a month.',
        },
      ]);
      expect((await index.search(WORKSPACE, { text: 'how much does Starter cost', limit: 3 }))[0]?.documentId).toBe('doc_plans');
      expect((await index.search(WORKSPACE, { text: 'opening hours', limit: 3 }))[0]?.documentId).toBe('doc_hours');
    } finally {
      index.close();
    }
    const table = await (await connect(folder)).openTable(`ws_${WORKSPACE.replace(/-/g, '')}`);
    const columns = (await table.schema()).fields.map((field) => field.name);
    expect(columns.filter((name) => /^(parent|passage)_/.test(name))).toEqual([]);
    expect(columns).toContain('text_en');
    expect((await table.listIndices()).flatMap((index) => index.columns).sort()).toEqual(['document_id', 'text_en']);
  });
});
