import { CreateTableCommand, DynamoDBClient, PutItemCommand, QueryCommand, ScanCommand, waitUntilTableExists } from '@aws-sdk/client-dynamodb';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { abstractLevelsOfDynalite } from '../../src/entries/local/dynalite-iterators';
import { startEmbeddedDynamo } from '../../src/entries/local/embedded-dynamo';

/** Iterators the store's databases opened and have not closed yet (each holds a snapshot of the store until closed). */
function countOpenIterators(): { open: () => number } {
  let open = 0;
  for (const { AbstractLevel } of abstractLevelsOfDynalite()) {
    const attach = AbstractLevel.prototype.attachResource;
    const detach = AbstractLevel.prototype.detachResource;
    vi.spyOn(AbstractLevel.prototype, 'attachResource').mockImplementation(function (this: unknown, resource) {
      open += 1;
      return attach.call(this, resource);
    });
    vi.spyOn(AbstractLevel.prototype, 'detachResource').mockImplementation(function (this: unknown, resource) {
      open -= 1;
      return detach.call(this, resource);
    });
  }
  return { open: () => open };
}

const folders: string[] = [];
beforeAll(() => void folders.push(mkdtempSync(join(tmpdir(), 'iterators-'))));
afterAll(() => folders.forEach((path) => rmSync(path, { recursive: true, force: true })));
afterEach(() => vi.restoreAllMocks());

describe.each([
  ['on disk (LevelDB, as npm start keeps its data)', () => folders[0]],
  ['in memory (as the tests run it)', () => undefined],
])('the embedded store %s', (_, dataDir) => {
  it('closes the iterator of every Query and Scan, whether it reads to the end or stops at its Limit', async () => {
    const dynamo = await startEmbeddedDynamo(dataDir());
    const client = new DynamoDBClient({ endpoint: dynamo.endpoint, region: 'local', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
    try {
      await client.send(
        new CreateTableCommand({
          TableName: 'iterators',
          KeySchema: [
            { AttributeName: 'pk', KeyType: 'HASH' },
            { AttributeName: 'sk', KeyType: 'RANGE' },
          ],
          AttributeDefinitions: [
            { AttributeName: 'pk', AttributeType: 'S' },
            { AttributeName: 'sk', AttributeType: 'S' },
          ],
          BillingMode: 'PAY_PER_REQUEST',
        }),
      );
      // dynalite makes a new table ACTIVE on a timer of its own; on a busy machine a put could come first.
      await waitUntilTableExists({ client, maxWaitTime: 30 }, { TableName: 'iterators' });
      for (let index = 0; index < 10; index++) {
        await client.send(new PutItemCommand({ TableName: 'iterators', Item: { pk: { S: 'queue' }, sk: { S: String(index).padStart(3, '0') } } }));
      }
      const iterators = countOpenIterators();
      for (let round = 0; round < 20; round++) {
        const query = { TableName: 'iterators', KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': { S: 'queue' } } };
        expect((await client.send(new QueryCommand({ ...query, Limit: 3 }))).Items).toHaveLength(3);
        expect((await client.send(new QueryCommand(query))).Items).toHaveLength(10);
        expect((await client.send(new ScanCommand({ TableName: 'iterators' }))).Items).toHaveLength(10);
      }
      await vi.waitFor(() => expect(iterators.open()).toBe(0));
    } finally {
      client.destroy();
      await dynamo.stop();
    }
  });
});
