import {
  BatchWriteItemCommand,
  CreateTableCommand,
  DeleteTableCommand,
  DescribeTableCommand,
  ResourceInUseException,
  ScanCommand,
  type AttributeDefinition,
  type CreateTableCommandInput,
  type DynamoDBClient,
  type TableDescription,
  type WriteRequest,
} from '@aws-sdk/client-dynamodb';
import { TABLES, physicalTableName, type KeyDefinition, type TableDefinition, type TableName } from '@service/shared';

const keySchema = (partition: KeyDefinition, sort?: KeyDefinition) => [
  { AttributeName: partition.name, KeyType: 'HASH' as const },
  ...(sort ? [{ AttributeName: sort.name, KeyType: 'RANGE' as const }] : []),
];

function attributeDefinitions(table: TableDefinition, withIndexes = true): AttributeDefinition[] {
  const keys = [table.partitionKey, table.sortKey, ...(withIndexes ? (table.indexes ?? []) : []).flatMap((index) => [index.partitionKey, index.sortKey])];
  const byName = new Map<string, KeyDefinition>();
  for (const key of keys) if (key) byName.set(key.name, key);
  return [...byName.values()].map((key) => ({ AttributeName: key.name, AttributeType: key.type }));
}

async function describe(client: DynamoDBClient, tableName: string): Promise<TableDescription | undefined> {
  try {
    return (await client.send(new DescribeTableCommand({ TableName: tableName }))).Table;
  } catch (error) {
    if (error instanceof Error && error.name === 'ResourceNotFoundException') return undefined;
    throw error;
  }
}

/** Waits (a few seconds at most) until the table is active, or gone when `gone`. */
async function settle(client: DynamoDBClient, tableName: string, gone = false): Promise<void> {
  for (let attempt = 0; attempt < 100; attempt += 1) {
    const table = await describe(client, tableName);
    if (gone ? !table : table?.TableStatus === 'ACTIVE') return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`The local table ${tableName} did not become ${gone ? 'deleted' : 'active'}`);
}

async function createTable(client: DynamoDBClient, tableName: string, table: TableDefinition, withIndexes = true): Promise<void> {
  await client.send(
    new CreateTableCommand({
      TableName: tableName,
      BillingMode: 'PAY_PER_REQUEST',
      KeySchema: keySchema(table.partitionKey, table.sortKey),
      AttributeDefinitions: attributeDefinitions(table, withIndexes),
      ...(withIndexes && table.indexes?.length
        ? {
            GlobalSecondaryIndexes: table.indexes.map((index) => ({
              IndexName: index.name,
              KeySchema: keySchema(index.partitionKey, index.sortKey),
              Projection: { ProjectionType: 'ALL' },
            })),
          }
        : {}),
    }),
  );
  await settle(client, tableName);
}

const lacksIndexes = (described: TableDescription, table: TableDefinition) =>
  (table.indexes ?? []).some((index) => !(described.GlobalSecondaryIndexes ?? []).some((found) => found.IndexName === index.name));

/** Puts every item of `from` into `to` (a put of the same item again is harmless, so a copy cut short is copied again). */
async function copyItems(client: DynamoDBClient, from: string, to: string): Promise<void> {
  let start: Record<string, never> | undefined;
  do {
    const page = await client.send(new ScanCommand({ TableName: from, ConsistentRead: true, ...(start ? { ExclusiveStartKey: start } : {}) }));
    const items = page.Items ?? [];
    for (let index = 0; index < items.length; index += 25) {
      let requests: WriteRequest[] = items.slice(index, index + 25).map((Item) => ({ PutRequest: { Item } }));
      while (requests.length > 0) requests = (await client.send(new BatchWriteItemCommand({ RequestItems: { [to]: requests } }))).UnprocessedItems?.[to] ?? [];
    }
    start = page.LastEvaluatedKey as Record<string, never> | undefined;
  } while (start);
}

const dropTable = async (client: DynamoDBClient, tableName: string) => {
  await client.send(new DeleteTableCommand({ TableName: tableName }));
  await settle(client, tableName, true);
};

/**
 * Gives an existing local table the indexes added to its definition since it was made (a data dir from an earlier
 * version). dynalite accepts UpdateTable's GlobalSecondaryIndexUpdates but creates no index (its updateTable only
 * changes throughput), so the table is rebuilt: its items are copied to `<table>.rebuild`, the table is made anew
 * with every index, the items copied back, the copy dropped. A crash at any step leaves `<table>.rebuild`, and the next
 * start goes on from it: the table is dropped only once the copy is whole, the copy only once the table has it all.
 */
async function rebuildWithIndexes(client: DynamoDBClient, tableName: string, table: TableDefinition): Promise<void> {
  const backup = `${tableName}.rebuild`;
  if (!(await describe(client, backup))) await createTable(client, backup, table, false);
  const current = await describe(client, tableName);
  if (current && lacksIndexes(current, table)) {
    await copyItems(client, tableName, backup);
    await dropTable(client, tableName);
  }
  if (!(await describe(client, tableName))) await createTable(client, tableName, table);
  await copyItems(client, backup, tableName);
  await dropTable(client, backup);
}

/**
 * Creates every missing table from the shared definitions (the local platform's equivalent of the CDK stack), and
 * adds to an existing one the indexes it lacks (rebuildWithIndexes).
 */
export async function ensureTables(client: DynamoDBClient, prefix: string): Promise<void> {
  await Promise.all(
    (Object.keys(TABLES) as TableName[]).map(async (name) => {
      const table: TableDefinition = TABLES[name];
      const tableName = physicalTableName(prefix, name);
      const current = await describe(client, tableName);
      if ((current && lacksIndexes(current, table)) || (await describe(client, `${tableName}.rebuild`))) await rebuildWithIndexes(client, tableName, table);
      else if (!current) await createTable(client, tableName, table);
    }),
  );
}

/** Creates a table as declared elsewhere (the bundled platform: a CloudFormation template), unless it exists already. */
export async function createTableIfAbsent(client: DynamoDBClient, input: CreateTableCommandInput): Promise<void> {
  await client.send(new CreateTableCommand(input)).catch((error: unknown) => {
    if (!(error instanceof ResourceInUseException)) throw error;
  });
}
