import type { SQSEvent } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QUEUE_BATCH_SIZE } from '@service/shared';
import { startEmbeddedDynamo } from '../../src/entries/local/embedded-dynamo';
import { LocalQueue } from '../../src/infra/queue/local';
import { ensureTables } from '../../src/infra/store/bootstrap';
import { createStore, type Store } from '../../src/infra/store/dynamo';
import { createWebhookConsumer } from '../../src/domains/webhooks/deliverer';
import { usePlatform } from '../support/platform';
import { emitCompleted, subscribe } from '../webhooks/helpers';
import { startReceiver } from '../webhooks/receiver';

async function until(condition: () => boolean | Promise<boolean>, what: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('the durable local queue', () => {
  let dynamo: Awaited<ReturnType<typeof startEmbeddedDynamo>>;
  let store: Store;
  beforeAll(async () => {
    dynamo = await startEmbeddedDynamo();
    store = createStore({ tablePrefix: 'queue-test', region: 'local', endpoint: dynamo.endpoint });
    await ensureTables(store.raw, 'queue-test');
  });
  afterAll(async () => {
    store.raw.destroy();
    await dynamo.stop();
  });

  /** A queue named `name` whose consumer notes every event and fails the bodies `failing` says, as a partial batch response. */
  function queueOf(name: string, options: { failing?: (body: string, receiveCount: number) => boolean; throws?: boolean }) {
    const events: SQSEvent[] = [];
    const queue = new LocalQueue<string>(store, { batchSize: { [name]: 10 }, visibilityTimeoutMs: { [name]: 300 }, maxReceiveCount: 3 });
    queue.consume(name, async (event) => {
      events.push(event);
      if (options.throws) throw new Error('consumer crashed');
      const failed = event.Records.filter((record) => options.failing?.(record.body, Number(record.attributes.ApproximateReceiveCount)));
      return { batchItemFailures: failed.map((record) => ({ itemIdentifier: record.messageId })) };
    });
    const received = (body: string) => events.flatMap((event) => event.Records).filter((record) => record.body === body).length;
    return { queue, events, received };
  }

  it('hands visible messages in batches of its batch size and deletes the handled ones', async () => {
    const { queue, events, received } = queueOf('batches', {});
    for (let i = 0; i < 25; i += 1) await queue.sendSerialized('batches', `m${i}`);
    queue.start();
    try {
      await until(() => Array.from({ length: 25 }, (_, i) => received(`m${i}`)).every((count) => count === 1), 'every message once');
      expect(Math.max(...events.map((event) => event.Records.length))).toBe(10);
      await until(async () => (await queue.depth('batches')) === 0, 'an empty queue');
    } finally {
      await queue.stop();
    }
  });

  it('redelivers only the item a batch reported failed, after its visibility timeout, with its receive count raised', async () => {
    const { queue, events, received } = queueOf('partial', { failing: (body, receiveCount) => body === 'bad' && receiveCount === 1 });
    for (const body of ['a', 'b', 'bad', 'c']) await queue.sendSerialized('partial', body);
    queue.start();
    try {
      await until(() => received('bad') === 2, 'the failed item again');
      expect(events[0]!.Records.map((record) => record.body).sort()).toEqual(['a', 'b', 'bad', 'c']);
      expect(['a', 'b', 'c'].map(received)).toEqual([1, 1, 1]);
      const again = events.flatMap((event) => event.Records).filter((record) => record.body === 'bad')[1]!;
      expect(again.attributes.ApproximateReceiveCount).toBe('2');
      await until(async () => (await queue.depth('partial')) === 0, 'an empty queue');
    } finally {
      await queue.stop();
    }
  });

  it('makes no requests while idle, like a long poll, and hands a delayed message out once its delay ends', async () => {
    const own = createStore({ tablePrefix: 'queue-test', region: 'local', endpoint: dynamo.endpoint });
    let requests = 0;
    own.raw.middlewareStack.add((next) => (args) => ((requests += 1), next(args)), { step: 'initialize' });
    const queue = new LocalQueue<string>(own, {});
    const handed: { body: string; at: number }[] = [];
    queue.consume('idle', async (event) => void handed.push(...event.Records.map((record) => ({ body: record.body, at: Date.now() }))));
    queue.start();
    try {
      const idleFrom = Date.now();
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      // At most a look when started and one a second after (it polled every 25 ms before: 60 looks here).
      expect(requests).toBeLessThanOrEqual(2 + Math.floor((Date.now() - idleFrom) / 1_000));
      const sentAt = Date.now();
      await queue.sendSerialized('idle', 'later', 1);
      await until(() => handed.length === 1, 'the delayed message');
      expect(handed[0]!.body).toBe('later');
      expect(handed[0]!.at).toBeGreaterThanOrEqual(sentAt + 1_000);
    } finally {
      await queue.stop();
      own.raw.destroy();
    }
  });

  it('redelivers a whole batch whose consumer threw, and dead-letters it after maxReceiveCount receives', async () => {
    const { queue, received } = queueOf('crashing', { throws: true });
    for (const body of ['x', 'y']) await queue.sendSerialized('crashing', body);
    queue.start();
    try {
      await until(async () => (await queue.depth('crashing-dlq')) === 2, 'both messages dead-lettered');
      expect(['x', 'y'].map(received)).toEqual([3, 3]);
      expect(await queue.depth('crashing')).toBe(0);
    } finally {
      await queue.stop();
    }
  });
});

describe('the local platform, as the stack maps its queues', () => {
  const context = usePlatform({ env: { WEBHOOK_ALLOW_LOCAL: '1' } });

  it('hands the webhook deliverer batches of the event source mapping’s size', async () => {
    const hook = await startReceiver();
    const sizes: number[] = [];
    try {
      await subscribe(context.api, hook.url);
      const { queue, deps } = context.platform;
      await queue.stop();
      const deliverer = createWebhookConsumer(deps);
      queue.consume('webhooks', (event) => (sizes.push(event.Records.length), deliverer(event)));
      for (let i = 0; i < 25; i += 1) await emitCompleted(context.platform);
      queue.start();
      await hook.waitFor((requests) => requests.length >= 25);
      expect(new Set(hook.requests.map((request) => request.event.id)).size).toBe(25);
      expect(Math.max(...sizes)).toBe(QUEUE_BATCH_SIZE.webhooks);
    } finally {
      await hook.close();
    }
  });
});
