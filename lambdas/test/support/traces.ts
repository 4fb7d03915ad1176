import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { TABLES, type TableName } from '@service/shared';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Deps } from '../../src/infra/deps';

/** An item as text, sets included (JSON.stringify drops them). */
const asText = (item: unknown): string => JSON.stringify(item, (_key, value: unknown) => (value instanceof Set ? [...value] : value));

/**
 * Where any of `needles` is still stored: every table of shared/src/tables.ts, whatever tables are added later (their
 * indexes hold copies of the table's items, so the tables cover them), scanned item by item; and every file under
 * `folders` (the blob store). `<table or file>: <needle>` for each find.
 */
export async function tracesOf(deps: Deps, needles: string[], folders: string[] = []): Promise<string[]> {
  const found: string[] = [];
  for (const table of Object.keys(TABLES) as TableName[]) {
    let start: Record<string, unknown> | undefined;
    do {
      const page = await deps.store.doc.send(
        new ScanCommand({ TableName: deps.store.table(table), ConsistentRead: true, ...(start ? { ExclusiveStartKey: start } : {}) }),
      );
      for (const item of page.Items ?? []) for (const needle of needles) if (asText(item).includes(needle)) found.push(`${table}: ${needle}`);
      start = page.LastEvaluatedKey;
    } while (start);
  }
  for (const folder of folders)
    for (const file of await filesUnder(folder)) {
      const text = await readFile(file, 'latin1');
      for (const needle of needles) if (text.includes(needle)) found.push(`${file}: ${needle}`);
    }
  return [...new Set(found)];
}

async function filesUnder(folder: string): Promise<string[]> {
  const entries = await readdir(folder, { withFileTypes: true }).catch(() => []);
  return (await Promise.all(entries.map((entry) => (entry.isDirectory() ? filesUnder(join(folder, entry.name)) : [join(folder, entry.name)])))).flat();
}
