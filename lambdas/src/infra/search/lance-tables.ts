import type { Connection, Table } from '@lancedb/lancedb';
import { tableName } from './lance-schema';

/** A connection's open tables, one handle per workspace, opened on first use. */
export function tableHandles(db: Connection) {
  const tables = new Map<string, Promise<Table | undefined>>();
  return {
    /** The workspace's table, or undefined when it has none yet (a workspace that never indexed anything). */
    existing(workspaceId: string): Promise<Table | undefined> {
      const name = tableName(workspaceId);
      let table = tables.get(name);
      if (!table) {
        table = db.tableNames().then((names) => (names.includes(name) ? db.openTable(name) : undefined));
        tables.set(name, table);
        table.then(
          (opened) => opened ?? tables.delete(name),
          () => tables.delete(name),
        );
      }
      return table;
    },
    opened(workspaceId: string, table: Table): void {
      tables.set(tableName(workspaceId), Promise.resolve(table));
    },
  };
}

export type TableHandles = ReturnType<typeof tableHandles>;
