import { CreateTableCommand, DescribeTableCommand, PutItemCommand, QueryCommand, UpdateTableCommand } from '@aws-sdk/client-dynamodb';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmbeddedDynamo } from '../../src/entries/local/embedded-dynamo';
import { ensureTables } from '../../src/infra/store/bootstrap';
import { createStore, type Store } from '../../src/infra/store/dynamo';
import { waitFor } from '../support/wait-for';

/** A data dir from before the agents table had its byEmail index: the bootstrap adds it, the items kept. */
describe('the local bootstrap on an older data dir', () => {
  let dataDir: string;
  let dynamo: Awaited<ReturnType<typeof startEmbeddedDynamo>>;
  let store: Store;
  const open = async (prefix: string) => {
    dynamo = await startEmbeddedDynamo(dataDir);
    store = createStore({ tablePrefix: prefix, region: 'local', endpoint: dynamo.endpoint });
  };
  const close = async () => {
    store.raw.destroy();
    await dynamo.stop();
  };
  /** The agents table as an earlier version made it: its keys and no byEmail index. */
  const oldAgentsTable = (name: string) =>
    store.raw.send(
      new CreateTableCommand({
        TableName: name,
        BillingMode: 'PAY_PER_REQUEST',
        KeySchema: [
          { AttributeName: 'workspaceId', KeyType: 'HASH' },
          { AttributeName: 'id', KeyType: 'RANGE' },
        ],
        AttributeDefinitions: [
          { AttributeName: 'workspaceId', AttributeType: 'S' },
          { AttributeName: 'id', AttributeType: 'S' },
        ],
      }),
    );
  const settled = (name: string) =>
    waitFor(async () => ((await store.raw.send(new DescribeTableCommand({ TableName: name }))).Table?.TableStatus === 'ACTIVE' ? true : undefined));
  const agent = (id: string) => ({ workspaceId: { S: 'ws1' }, id: { S: id }, email: { S: `${id}@agents.example` }, name: { S: `Agent ${id}` } });
  const byEmail = (table: string, email: string) =>
    store.raw.send(
      new QueryCommand({ TableName: table, IndexName: 'byEmail', KeyConditionExpression: 'email = :e', ExpressionAttributeValues: { ':e': { S: email } } }),
    );
  const indexesOf = async (table: string) =>
    ((await store.raw.send(new DescribeTableCommand({ TableName: table }))).Table?.GlobalSecondaryIndexes ?? []).map((index) => index.IndexName);

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'bootstrap-test-'));
  });
  afterAll(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  it('dynalite creates no index through UpdateTable (why the bootstrap rebuilds)', async () => {
    await open('probe-');
    try {
      await oldAgentsTable('probe-agents');
      await settled('probe-agents');
      await store.raw.send(
        new UpdateTableCommand({
          TableName: 'probe-agents',
          AttributeDefinitions: [{ AttributeName: 'email', AttributeType: 'S' }],
          GlobalSecondaryIndexUpdates: [
            {
              Create: {
                IndexName: 'byEmail',
                KeySchema: [{ AttributeName: 'email', KeyType: 'HASH' }],
                Projection: { ProjectionType: 'ALL' },
                ProvisionedThroughput: { ReadCapacityUnits: 1, WriteCapacityUnits: 1 },
              },
            },
          ],
        }),
      );
      expect(await indexesOf('probe-agents')).not.toContain('byEmail');
    } finally {
      await close();
    }
  });

  it('adds the missing index to a table made before it, keeping every item, across a restart', async () => {
    await open('old-');
    try {
      await oldAgentsTable('old-agents');
      await settled('old-agents');
      await store.raw.send(new PutItemCommand({ TableName: 'old-agents', Item: agent('a1') }));
      await store.raw.send(new PutItemCommand({ TableName: 'old-agents', Item: agent('a2') }));
    } finally {
      await close();
    }
    await open('old-');
    try {
      await ensureTables(store.raw, 'old-');
      expect(await indexesOf('old-agents')).toContain('byEmail');
      const found = await byEmail('old-agents', 'a2@agents.example');
      expect(found.Items?.map((item) => item.name?.S)).toEqual(['Agent a2']);
      expect((await byEmail('old-agents', 'a1@agents.example')).Items).toHaveLength(1);
      // Run again: nothing to do, nothing lost.
      await ensureTables(store.raw, 'old-');
      expect((await byEmail('old-agents', 'a1@agents.example')).Items).toHaveLength(1);
    } finally {
      await close();
    }
  });

  it('finishes a rebuild a crash left: the copy holds the items, the table was already dropped', async () => {
    await open('crashed-');
    try {
      await oldAgentsTable('crashed-agents.rebuild');
      await settled('crashed-agents.rebuild');
      await store.raw.send(new PutItemCommand({ TableName: 'crashed-agents.rebuild', Item: agent('a3') }));
      await ensureTables(store.raw, 'crashed-');
      expect((await byEmail('crashed-agents', 'a3@agents.example')).Items?.map((item) => item.name?.S)).toEqual(['Agent a3']);
      await expect(store.raw.send(new DescribeTableCommand({ TableName: 'crashed-agents.rebuild' }))).rejects.toThrow(/not found/i);
    } finally {
      await close();
    }
  });
});
