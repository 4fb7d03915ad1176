import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import {
  DeleteCommand,
  DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  QueryCommand,
  ScanCommand,
  UpdateCommand,
  type QueryCommandInput,
  type ScanCommandInput,
} from '@aws-sdk/lib-dynamodb';
import { physicalTableName, type TableName } from '@service/shared';

/** The document client plus the physical table names of this deployment. */
export interface Store {
  doc: DynamoDBDocumentClient;
  raw: DynamoDBClient;
  table(name: TableName): string;
}

export function createStore(options: { tablePrefix: string; region: string; endpoint?: string }): Store {
  const raw = new DynamoDBClient({
    region: options.region,
    ...(options.endpoint
      ? // dynalite accepts any credentials; never let the SDK go looking for real ones locally.
        { endpoint: options.endpoint, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } }
      : {}),
  });
  const doc = DynamoDBDocumentClient.from(raw, { marshallOptions: { removeUndefinedValues: true } });
  return { doc, raw, table: (name) => physicalTableName(options.tablePrefix, name) };
}

/** True when a conditional write lost its condition (the item exists, or changed under us). */
const isConditionFailure = (error: unknown): boolean => error instanceof Error && error.name === 'ConditionalCheckFailedException';

/**
 * Awaits a conditional write: its output, or undefined when its condition did not hold (any other failure is thrown).
 * Every invariant here is kept by conditional writes (no transactions), so "did it apply?" is a value, not a catch block.
 */
export async function ifConditionHolds<T>(write: Promise<T>): Promise<T | undefined> {
  try {
    return await write;
  } catch (error) {
    if (isConditionFailure(error)) return undefined;
    throw error;
  }
}

/** The condition of a write to one item, with the names and values its expressions use (no condition: the write always applies). */
export interface WriteCondition {
  ConditionExpression?: string;
  ExpressionAttributeNames?: Record<string, string>;
  ExpressionAttributeValues?: Record<string, unknown>;
}

/** What a conditional update of one item says, besides its table and key. */
export interface ConditionalUpdate extends WriteCondition {
  UpdateExpression: string;
}

/** One item by its key, read consistently (so it sees a write made a moment ago), or undefined. */
export async function readItem<T>(store: Store, tableName: string, key: Record<string, unknown>): Promise<T | undefined> {
  return (await store.doc.send(new GetCommand({ TableName: tableName, Key: key, ConsistentRead: true }))).Item as T | undefined;
}

/** Stores a new item; throws ConditionalCheckFailedException when an item is already stored under its key. */
export async function putNewItem(store: Store, tableName: string, item: object, keyAttribute: string): Promise<void> {
  await store.doc.send(
    new PutCommand({ TableName: tableName, Item: item, ConditionExpression: 'attribute_not_exists(#key)', ExpressionAttributeNames: { '#key': keyAttribute } }),
  );
}

/**
 * A conditional UpdateItem of one item of `tableName` (physical: callers pass `store.table('…')`, which is also how
 * cdk/test/grants-match-code.test.ts sees the tables a handler uses): the item as it is after the update, or undefined
 * when the condition did not hold.
 */
export async function updateIf<T>(store: Store, tableName: string, key: Record<string, unknown>, update: ConditionalUpdate): Promise<T | undefined> {
  const result = await ifConditionHolds(store.doc.send(new UpdateCommand({ TableName: tableName, Key: key, ...update, ReturnValues: 'ALL_NEW' })));
  return result?.Attributes as T | undefined;
}

/**
 * Sets `attribute` of an existing item (its key's one attribute `key`) to `at`, once: false when the item is gone or
 * the attribute was already set (a single-use secret used again, an invitation accepted twice).
 */
export async function setOnce(store: Store, tableName: string, key: Record<string, string>, attribute: string, at: string): Promise<boolean> {
  const set = await updateIf(store, tableName, key, {
    UpdateExpression: `SET ${attribute} = :at`,
    ConditionExpression: `attribute_exists(${Object.keys(key)[0]!}) AND attribute_not_exists(${attribute})`,
    ExpressionAttributeValues: { ':at': at },
  });
  return set !== undefined;
}

/** A conditional PutItem of `item` into `tableName` (physical, as for updateIf): false when the condition did not hold. */
export async function putIf(store: Store, tableName: string, item: object, condition: WriteCondition): Promise<boolean> {
  return (await ifConditionHolds(store.doc.send(new PutCommand({ TableName: tableName, Item: item, ...condition })))) !== undefined;
}

/**
 * A conditional DeleteItem of one item of `tableName` (physical, as for updateIf): the item as it was, or undefined
 * when the condition did not hold. The condition must require the item (`attribute_exists`, or a comparison of its
 * attributes, which fails on a missing item), so that undefined means "not deleted".
 */
export async function deleteIf<T>(
  store: Store,
  tableName: string,
  key: Record<string, unknown>,
  condition: WriteCondition & { ConditionExpression: string },
): Promise<T | undefined> {
  const result = await ifConditionHolds(store.doc.send(new DeleteCommand({ TableName: tableName, Key: key, ...condition, ReturnValues: 'ALL_OLD' })));
  return result?.Attributes as T | undefined;
}

/**
 * An idempotent create: writes `item` unless its key is taken, else answers the item stored under that key (what an
 * earlier attempt of the same action wrote, its id derived from the same Idempotency-Key).
 */
export async function createOrFind<T extends object>(
  store: Store,
  table: TableName,
  item: T,
  key: Record<string, string>,
): Promise<{ item: T; created: boolean }> {
  if (
    await putIf(store, store.table(table), item, {
      ConditionExpression: 'attribute_not_exists(#key)',
      ExpressionAttributeNames: { '#key': Object.keys(key)[0]! },
    })
  )
    return { item, created: true };
  const existing = await readItem<T>(store, store.table(table), key);
  if (!existing) throw new Error(`${table}: the item under ${JSON.stringify(key)} exists and does not`);
  return { item: existing, created: false };
}

type Page = { Items?: Record<string, unknown>[]; LastEvaluatedKey?: Record<string, unknown> };

/** Every item of a paged read, page after page (DynamoDB answers at most 1 MB a page). */
async function allPages<T>(read: (start: { ExclusiveStartKey?: Record<string, unknown> }) => Promise<Page>): Promise<T[]> {
  const items: T[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const page = await read(start ? { ExclusiveStartKey: start } : {});
    items.push(...((page.Items ?? []) as T[]));
    start = page.LastEvaluatedKey;
  } while (start);
  return items;
}

/** Every item a query matches. */
export const queryAll = <T>(store: Store, input: Omit<QueryCommandInput, 'ExclusiveStartKey'>): Promise<T[]> =>
  allPages<T>((start) => store.doc.send(new QueryCommand({ ...input, ...start })));

/** Every item a scan matches: for the rare sweeps over a whole table (the retention sweeper's workspaces), never a request's hot path. */
export const scanAll = <T>(store: Store, input: Omit<ScanCommandInput, 'ExclusiveStartKey'>): Promise<T[]> =>
  allPages<T>((start) => store.doc.send(new ScanCommand({ ...input, ...start })));
