import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
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
export const isConditionFailure = (error: unknown): boolean =>
  error instanceof Error && error.name === 'ConditionalCheckFailedException';
