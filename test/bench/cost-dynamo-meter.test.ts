import { GetCommand, PutCommand, QueryCommand, UpdateCommand, DeleteCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { meterDynamo, type DynamoMeter } from '../../bench/cost-dynamo-meter';
import { startEmbeddedDynamo } from '../../lambdas/src/entries/local/embedded-dynamo';
import { ensureTables } from '../../lambdas/src/infra/store/bootstrap';
import { createStore, ifConditionHolds, type Store } from '../../lambdas/src/infra/store/dynamo';

/** The cost bench's DynamoDB meter counts request units as DynamoDB on-demand bills them. */
let dynamo: Awaited<ReturnType<typeof startEmbeddedDynamo>>;
let store: Store;
let meter: DynamoMeter;
const options = { tablePrefix: 'meter-', region: 'us-east-1' };

beforeAll(async () => {
  dynamo = await startEmbeddedDynamo();
  store = createStore({ ...options, endpoint: dynamo.endpoint });
  await ensureTables(store.raw, options.tablePrefix);
  meter = meterDynamo(store, { ...options, endpoint: dynamo.endpoint });
});
afterAll(async () => {
  store.raw.destroy();
  await dynamo.stop();
});

const runs = () => store.table('runs');
const run = { runId: 'run_1', agentId: 'agent_1', createdAt: '2026-11-25T00:00:00.000Z', status: 'queued', pendingStatus: 'queued' };
const usageOf = (table: Parameters<Store['table']>[0]) => meter.usage().get(table);

describe('the cost meter', () => {
  it('counts a write to a table with indexes once for the table and once for each index entry it adds, moves or changes', async () => {
    meter.reset();
    await store.doc.send(new PutCommand({ TableName: runs(), Item: run }));
    // Both indexes (byAgent, and the sparse pending) gain an entry.
    expect(usageOf('runs')).toMatchObject({ writeUnits: 1, indexWriteUnits: 2 });

    await store.doc.send(
      new UpdateCommand({
        TableName: runs(),
        Key: { runId: run.runId },
        UpdateExpression: 'SET pendingStatus = :s, #st = :s',
        ExpressionAttributeNames: { '#st': 'status' },
        ExpressionAttributeValues: { ':s': 'running' },
      }),
    );
    // byAgent: the entry changes (1); pending: its key moves, removed and added (2).
    expect(usageOf('runs')).toMatchObject({ writeUnits: 2, indexWriteUnits: 5 });

    await store.doc.send(
      new UpdateCommand({
        TableName: runs(),
        Key: { runId: run.runId },
        UpdateExpression: 'SET #st = :s REMOVE pendingStatus',
        ExpressionAttributeNames: { '#st': 'status' },
        ExpressionAttributeValues: { ':s': 'completed' },
      }),
    );
    // byAgent changes (1); pending loses the entry (1).
    expect(usageOf('runs')).toMatchObject({ writeUnits: 3, indexWriteUnits: 7 });

    await store.doc.send(
      new UpdateCommand({
        TableName: runs(),
        Key: { runId: run.runId },
        UpdateExpression: 'SET #st = :s',
        ExpressionAttributeNames: { '#st': 'status' },
        ExpressionAttributeValues: { ':s': 'completed' },
      }),
    );
    // Nothing changed: no index write.
    expect(usageOf('runs')).toMatchObject({ writeUnits: 4, indexWriteUnits: 7 });

    await store.doc.send(new DeleteCommand({ TableName: runs(), Key: { runId: run.runId } }));
    expect(usageOf('runs')).toMatchObject({ writeUnits: 5, indexWriteUnits: 8 });
  });

  it('counts a conditional write whose condition failed, and reads as consistent or eventually consistent', async () => {
    meter.reset();
    const item = { workspaceId: 'ws_1', sk: 'contact#1', name: 'Jane Doe' };
    await store.doc.send(new PutCommand({ TableName: store.table('records'), Item: item }));
    const again = await ifConditionHolds(
      store.doc.send(new PutCommand({ TableName: store.table('records'), Item: item, ConditionExpression: 'attribute_not_exists(sk)' })),
    );
    expect(again).toBeUndefined();
    await store.doc.send(new GetCommand({ TableName: store.table('records'), Key: { workspaceId: 'ws_1', sk: 'contact#1' }, ConsistentRead: true }));
    await store.doc.send(
      new QueryCommand({ TableName: store.table('records'), KeyConditionExpression: 'workspaceId = :w', ExpressionAttributeValues: { ':w': 'ws_1' } }),
    );
    expect(usageOf('records')).toEqual({ writeUnits: 1, indexWriteUnits: 0, failedConditionUnits: 1, readUnits: 1.5 });
  });

  it('leaves out the local-only tables that stand in for SQS and SES', async () => {
    meter.reset();
    await store.doc.send(new PutCommand({ TableName: store.table('localQueue'), Item: { queue: 'runs', sk: '1', body: '{}' } }));
    expect(meter.usage().size).toBe(0);
  });
});
