import { CreateTableCommand, DescribeTableCommand, ResourceInUseException, type AttributeDefinition, type CreateTableCommandInput, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { TABLES, physicalTableName, type KeyDefinition, type TableDefinition, type TableName } from '@service/shared';

const keySchema = (partition: KeyDefinition, sort?: KeyDefinition) => [
  { AttributeName: partition.name, KeyType: 'HASH' as const },
  ...(sort ? [{ AttributeName: sort.name, KeyType: 'RANGE' as const }] : []),
];

function attributeDefinitions(table: TableDefinition): AttributeDefinition[] {
  const keys = [table.partitionKey, table.sortKey, ...(table.indexes ?? []).flatMap((index) => [index.partitionKey, index.sortKey])];
  const byName = new Map<string, KeyDefinition>();
  for (const key of keys) if (key) byName.set(key.name, key);
  return [...byName.values()].map((key) => ({ AttributeName: key.name, AttributeType: key.type }));
}

async function exists(client: DynamoDBClient, tableName: string): Promise<boolean> {
  try {
    await client.send(new DescribeTableCommand({ TableName: tableName }));
    return true;
  } catch (error) {
    if (error instanceof Error && error.name === 'ResourceNotFoundException') return false;
    throw error;
  }
}

/** Creates every missing table from the shared definitions (the local platform's equivalent of the CDK stack). */
export async function ensureTables(client: DynamoDBClient, prefix: string): Promise<void> {
  await Promise.all(
    (Object.keys(TABLES) as TableName[]).map(async (name) => {
      const table: TableDefinition = TABLES[name];
      const tableName = physicalTableName(prefix, name);
      if (await exists(client, tableName)) return;
      await client.send(
        new CreateTableCommand({
          TableName: tableName,
          BillingMode: 'PAY_PER_REQUEST',
          KeySchema: keySchema(table.partitionKey, table.sortKey),
          AttributeDefinitions: attributeDefinitions(table),
          ...(table.indexes?.length
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
    }),
  );
}

/** Creates a table as declared elsewhere (the bundled platform: a CloudFormation template), unless it exists already. */
export async function createTableIfAbsent(client: DynamoDBClient, input: CreateTableCommandInput): Promise<void> {
  await client.send(new CreateTableCommand(input)).catch((error: unknown) => {
    if (!(error instanceof ResourceInUseException)) throw error;
  });
}
