import { GetItemCommand, type AttributeValue } from '@aws-sdk/client-dynamodb';
import { performance } from 'node:perf_hooks';
import { TABLES, physicalTableName, type IndexDefinition, type TableDefinition, type TableName } from '@service/shared';
import { createStore, type Store } from '../lambdas/src/infra/store/dynamo';

/** Request units one table consumed, as DynamoDB on-demand bills them. */
export interface TableUsage {
  readUnits: number;
  writeUnits: number;
  /** Writes to the table's global secondary indexes (projection ALL: the item's own size each). */
  indexWriteUnits: number;
  /** Conditional writes whose condition failed: DynamoDB bills the existing item's size, at least one unit. */
  failedConditionUnits: number;
}

export interface DynamoMeter {
  usage(): ReadonlyMap<TableName, TableUsage>;
  /** Requests by operation and table, e.g. `GetItem runs` (a multi-table request counts once for each table it names). */
  operations(): ReadonlyMap<string, number>;
  /** When the meter itself waited on item reads around index writes (performance.now() spans): the functions waited too. */
  imageReads(): readonly [number, number][];
  reset(): void;
}

type Item = Record<string, AttributeValue>;
interface ConsumedCapacity {
  TableName?: string;
  CapacityUnits?: number;
}
interface WireRequest {
  headers: Record<string, string>;
  body?: unknown;
}

const READS = new Set(['GetItem', 'Query', 'Scan', 'BatchGetItem', 'TransactGetItems']);
const WRITES = new Set(['PutItem', 'UpdateItem', 'DeleteItem', 'BatchWriteItem', 'TransactWriteItems']);
const SINGLE_ITEM_WRITES = new Set(['PutItem', 'UpdateItem', 'DeleteItem']);

/** JSON with object keys sorted, so two images of one item compare equal whatever order their attributes came in. */
const canonical = (value: unknown): string =>
  JSON.stringify(value, (_key, inner: unknown) =>
    inner && typeof inner === 'object' && !Array.isArray(inner) ? Object.fromEntries(Object.entries(inner).sort(([a], [b]) => a.localeCompare(b))) : inner,
  );

const indexKeyOf = (image: Item | undefined, index: IndexDefinition): string | undefined => {
  const names = [index.partitionKey.name, ...(index.sortKey ? [index.sortKey.name] : [])];
  return image && names.every((name) => image[name] !== undefined) ? canonical(names.map((name) => image[name])) : undefined;
};

/**
 * Index write units of one item write, by DynamoDB's rules for global secondary indexes: an entry added or removed is
 * one write, an entry whose index key changed is two (removed, then added), an entry whose projected attributes changed
 * is one; each as large as the item (`unitsPerWrite`, the table write's own units).
 */
function indexWriteUnits(definition: TableDefinition, before: Item | undefined, after: Item | undefined, unitsPerWrite: number): number {
  let units = 0;
  for (const index of definition.indexes ?? []) {
    const [from, to] = [indexKeyOf(before, index), indexKeyOf(after, index)];
    if (from === undefined && to === undefined) continue;
    if (from === undefined || to === undefined) units += unitsPerWrite;
    else if (from !== to) units += 2 * unitsPerWrite;
    else if (canonical(before) !== canonical(after)) units += unitsPerWrite;
  }
  return units;
}

/** The physical tables a multi-item request names (BatchWriteItem's RequestItems, TransactWriteItems' TransactItems). */
function tablesOf(body: { RequestItems?: Record<string, unknown>; TransactItems?: Record<string, { TableName?: string }>[] }): string[] {
  const transact = (body.TransactItems ?? []).flatMap((item) => Object.values(item).flatMap((part) => (part.TableName ? [part.TableName] : [])));
  return [...Object.keys(body.RequestItems ?? {}), ...transact];
}

const hasIndexes = (name: TableName | undefined) => name !== undefined && ((TABLES[name] as TableDefinition).indexes?.length ?? 0) > 0;

const itemUnits = (item: Item | undefined) => Math.max(1, Math.ceil(Buffer.byteLength(JSON.stringify(item ?? {})) / 1024));

/**
 * Meters every call of the platform's DynamoDB client (one middleware on its stack, which the document client shares):
 * asks for ReturnConsumedCapacity TOTAL and adds up what the store reports, per table. dynalite reports a write's
 * table units only, so writes to tables with indexes also read the item before (and, for an update, after) with a
 * client of the meter's own, to count the index writes DynamoDB would bill. Local-only tables (the local queue, the
 * mailbox) stand in for SQS and SES and are left out.
 */
export function meterDynamo(store: Store, options: { tablePrefix: string; region: string; endpoint: string }): DynamoMeter {
  const images = createStore(options).raw;
  const tables = new Map(
    (Object.keys(TABLES) as TableName[])
      .filter((name) => !(TABLES[name] as TableDefinition).localOnly)
      .map((name) => [physicalTableName(options.tablePrefix, name), name]),
  );
  let usage = new Map<TableName, TableUsage>();
  let operations = new Map<string, number>();
  let imageReads: [number, number][] = [];
  const tally = (name: TableName) => {
    let entry = usage.get(name);
    if (!entry) usage.set(name, (entry = { readUnits: 0, writeUnits: 0, indexWriteUnits: 0, failedConditionUnits: 0 }));
    return entry;
  };
  const readImage = async (tableName: string, key: Item): Promise<Item | undefined> => {
    const started = performance.now();
    try {
      return (await images.send(new GetItemCommand({ TableName: tableName, Key: key, ConsistentRead: true }))).Item;
    } finally {
      imageReads.push([started, performance.now()]);
    }
  };

  store.raw.middlewareStack.add(
    (next) => async (args) => {
      const request = args.request as WireRequest;
      const operation = String(request.headers['x-amz-target'] ?? '').split('.')[1] ?? '';
      if (!READS.has(operation) && !WRITES.has(operation)) return next(args);
      const body = JSON.parse(typeof request.body === 'string' ? request.body : new TextDecoder().decode(request.body as Uint8Array)) as Parameters<
        typeof tablesOf
      >[0] & { TableName?: string; Key?: Item; Item?: Item; ReturnConsumedCapacity?: string };
      body.ReturnConsumedCapacity = 'TOTAL';
      const rewritten = JSON.stringify(body);
      request.body = typeof request.body === 'string' ? rewritten : new TextEncoder().encode(rewritten);
      if (request.headers['content-length'] !== undefined) request.headers['content-length'] = String(Buffer.byteLength(rewritten));

      const name = body.TableName === undefined ? undefined : tables.get(body.TableName);
      for (const table of new Set((body.TableName === undefined ? tablesOf(body) : [body.TableName]).flatMap((physical) => tables.get(physical) ?? []))) {
        operations.set(`${operation} ${table}`, (operations.get(`${operation} ${table}`) ?? 0) + 1);
      }
      const definition = name === undefined ? undefined : (TABLES[name] as TableDefinition);
      const imaged = definition !== undefined && SINGLE_ITEM_WRITES.has(operation) && hasIndexes(name);
      if (!SINGLE_ITEM_WRITES.has(operation) && WRITES.has(operation) && tablesOf(body).some((table) => hasIndexes(tables.get(table)))) {
        throw new Error(`cost meter: the index writes of ${operation} are not counted; meter them before benchmarking this path`);
      }
      const key =
        body.Key ??
        (body.Item && definition
          ? Object.fromEntries([definition.partitionKey, definition.sortKey].flatMap((k) => (k ? [[k.name, body.Item![k.name]!]] : [])))
          : undefined);
      const before = imaged && key ? await readImage(body.TableName!, key) : undefined;

      let result: Awaited<ReturnType<typeof next>>;
      try {
        result = await next(args);
      } catch (error) {
        if (name !== undefined && key && error instanceof Error && error.name === 'ConditionalCheckFailedException') {
          tally(name).failedConditionUnits += itemUnits(imaged ? before : await readImage(body.TableName!, key));
        }
        throw error;
      }
      const consumed = (result.output as { ConsumedCapacity?: ConsumedCapacity | ConsumedCapacity[] }).ConsumedCapacity;
      let tableUnits = 0;
      for (const capacity of [consumed ?? []].flat()) {
        const counted = capacity.TableName === undefined ? undefined : tables.get(capacity.TableName);
        if (counted === undefined) continue;
        const units = capacity.CapacityUnits ?? 0;
        if (READS.has(operation)) tally(counted).readUnits += units;
        else tally(counted).writeUnits += units;
        tableUnits += units;
      }
      if (imaged && name !== undefined && key) {
        const after = operation === 'PutItem' ? body.Item : operation === 'DeleteItem' ? undefined : await readImage(body.TableName!, key);
        tally(name).indexWriteUnits += indexWriteUnits(definition, before, after, tableUnits);
      }
      return result;
    },
    { step: 'build', priority: 'high', name: 'costMeter' },
  );

  return {
    usage: () => usage,
    operations: () => operations,
    imageReads: () => imageReads,
    reset() {
      usage = new Map();
      operations = new Map();
      imageReads = [];
    },
  };
}
