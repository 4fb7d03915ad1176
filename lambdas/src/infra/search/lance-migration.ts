import type { Table } from '@lancedb/lancedb';
import { retryingConflicts } from './lance-conflicts';
import { ftsConfig, KIND_COLUMN, textColumn, type Lance } from './lance-schema';
import type { TableHandles } from './lance-tables';
import type { IndexUpkeep } from './lance-upkeep';
import { INDEX_LANGUAGES } from './language';

/**
 * A table written before the kinds shared a column gets the shared columns (each the value of its two old ones) with
 * their full-text indexes, and loses the old ones: once, by the first process to open it after the upgrade. Another
 * process doing the same at the same moment loses the commit race and finds the work done.
 */
async function mergeKindColumns(lancedb: Lance, table: Table, upkeep: IndexUpkeep): Promise<void> {
  const oldColumns = async () => (await table.schema()).fields.map((field) => field.name).filter((name) => KIND_COLUMN.test(name));
  const old = await oldColumns();
  if (old.length === 0) return;
  try {
    const names = new Set((await table.schema()).fields.map((field) => field.name));
    const added = INDEX_LANGUAGES.filter((language) => !names.has(textColumn(language)));
    if (added.length > 0)
      await table.addColumns(added.map((language) => ({ name: textColumn(language), valueSql: `coalesce(parent_${language}, passage_${language})` })));
    for (const language of INDEX_LANGUAGES) {
      const column = textColumn(language);
      if ((await table.countRows(`${column} IS NOT NULL`)) > 0)
        await retryingConflicts(() => table.createIndex(column, { config: lancedb.Index.fts(ftsConfig(language)) }));
    }
    await table.dropColumns(old);
  } catch (error) {
    await table.checkoutLatest();
    if ((await oldColumns()).length > 0) throw error;
  }
  await upkeep.indexedColumns(table, true);
}

/** The workspace's table in the current layout (none is fine: a new one is made so), once per workspace and process. */
export function kindColumnMigration(lancedb: Lance, existing: TableHandles['existing'], upkeep: IndexUpkeep): (workspaceId: string) => Promise<void> {
  const upgrades = new Map<string, Promise<void>>();
  return (workspaceId) => {
    let upgrade = upgrades.get(workspaceId);
    if (!upgrade) {
      upgrade = existing(workspaceId).then((table) => table && mergeKindColumns(lancedb, table, upkeep));
      upgrades.set(workspaceId, upgrade);
      upgrade.catch(() => upgrades.delete(workspaceId));
    }
    return upgrade;
  };
}
