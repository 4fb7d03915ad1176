import type { CreateTableCommandInput } from '@aws-sdk/client-dynamodb';
import { createTableIfAbsent } from '../../infra/store/bootstrap';
import type { Store } from '../../infra/store/dynamo';
import { propertiesOf, resourcesOfType, type ResolvedStack } from './cloudformation';

/** Creates each DynamoDB table of the template as declared there (keys, indexes), so a missing index fails here as in AWS. */
export async function createStackTables(store: Store, stack: ResolvedStack): Promise<void> {
  const tables = [...resourcesOfType(stack, 'AWS::DynamoDB::GlobalTable'), ...resourcesOfType(stack, 'AWS::DynamoDB::Table')];
  await Promise.all(
    tables.map(async ([, table]) => {
      const { TableName, KeySchema, AttributeDefinitions, GlobalSecondaryIndexes } = propertiesOf<CreateTableCommandInput>(table);
      const input: CreateTableCommandInput = {
        TableName,
        KeySchema,
        AttributeDefinitions,
        BillingMode: 'PAY_PER_REQUEST',
        ...(GlobalSecondaryIndexes?.length
          ? { GlobalSecondaryIndexes: GlobalSecondaryIndexes.map(({ IndexName, KeySchema: keys, Projection }) => ({ IndexName, KeySchema: keys, Projection })) }
          : {}),
      };
      await createTableIfAbsent(store.raw, input);
    }),
  );
}
