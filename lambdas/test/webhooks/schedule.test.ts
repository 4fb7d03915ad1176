import type { SQSEvent } from 'aws-lambda';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Deps } from '../../src/infra/deps';
import { SQS_MAX_DELAY_SECONDS, type QueueSender } from '../../src/infra/queue/queue';
import { claimFirstAttempts, listAttempts } from '../../src/domains/webhooks/delivery-repository';
import { createWebhookConsumer, FIRST_ATTEMPTS_LEASE_MS } from '../../src/domains/webhooks/deliverer';
import { emitEvent } from '../../src/domains/webhooks/emit';
import { createWebhookSender, type WebhookSender } from '../../src/domains/webhooks/send';
import { createSubscription } from '../../src/domains/webhooks/subscriptions';
import { usePlatform } from '../support/platform';
import { createWorkspace } from '../support/workspaces';
import { completedData } from './helpers';
import { startReceiver, type Receiver } from './receiver';

/**
 * The full, unscaled schedule (2 min, 10 min, 30 min, 2 h) on a simulated clock, through SQS as AWS behaves:
 * delays capped at 900 s and rounded up to whole seconds, every message possibly delivered twice.
 * The store is the platform's real one; only SQS (which we cannot run here) and the clock are simulated.
 */
const context = usePlatform({ env: { WEBHOOK_ALLOW_LOCAL: '1', WEBHOOK_RETRY_SCALE: '1' } });

/** The `webhooks` queue's visibility timeout in AWS (cdk/lib/work-queue.ts): a failed message comes back this long after it was received. */
const VISIBILITY_TIMEOUT_MS = 360_000;

class SimulatedSqs implements QueueSender {
  clock = Date.parse('2026-03-01T00:00:00Z');
  private messages: Array<{ id: string; body: string; visibleAt: number; delaySeconds: number }> = [];
  readonly delays: number[] = [];
  /** How many of the next sends fail, as SQS does when it is unreachable. */
  failSends = 0;

  get waiting() {
    return this.messages.length;
  }

  async send(_queue: string, body: unknown, options: { delaySeconds?: number } = {}) {
    if (this.failSends > 0) {
      this.failSends -= 1;
      throw new Error('SQS unavailable');
    }
    const delaySeconds = Math.min(SQS_MAX_DELAY_SECONDS, Math.ceil(options.delaySeconds ?? 0));
    this.delays.push(delaySeconds);
    this.messages.push({ id: randomUUID(), body: JSON.stringify(body), visibleAt: this.clock + delaySeconds * 1000, delaySeconds });
  }

  /** Takes the next visible message, moving the clock to when it becomes visible. */
  next(): SQSEvent | undefined {
    this.messages.sort((a, b) => a.visibleAt - b.visibleAt);
    const message = this.messages.shift();
    if (!message) return undefined;
    this.clock = Math.max(this.clock, message.visibleAt);
    const record = {
      messageId: message.id,
      receiptHandle: message.id,
      body: message.body,
      attributes: {},
      messageAttributes: {},
      md5OfBody: '',
      eventSource: 'aws:sqs',
      eventSourceARN: 'arn:aws:sqs:sim:0:webhooks',
      awsRegion: 'sim',
    };
    return { Records: [record as SQSEvent['Records'][number]] };
  }
}

describe('webhook retry schedule through SQS limits', () => {
  let receiver: Receiver;
  beforeAll(async () => {
    receiver = await startReceiver(() => 500);
  });
  afterAll(() => receiver.close());

  const setup = async () => {
    const sqs = new SimulatedSqs();
    const deps: Deps = { ...context.platform.deps, queue: sqs, now: () => new Date(sqs.clock) };
    const { workspaceId } = await createWorkspace(deps);
    const subscription = await createSubscription(deps, workspaceId, { url: receiver.url, events: ['agent.command.completed'] });
    await emitEvent(deps, workspaceId, 'agent.command.completed', completedData());
    return { sqs, deps, subscription, start: sqs.clock, consumer: createWebhookConsumer(deps) };
  };
  const attemptOffsets = async (deps: Deps, subscriptionId: string, start: number) =>
    (await listAttempts(deps, subscriptionId, 10)).map((entry) => (Date.parse(entry.attemptedAt) - start) / 1000).reverse();

  it('hops long delays in 900 s steps and attempts at 0, 2 min, 12 min, 42 min and 2 h 42 min', async () => {
    const { sqs, deps, subscription, start, consumer } = await setup();
    const before = receiver.requests.length;
    for (let event = sqs.next(); event; event = sqs.next()) await consumer(event);

    expect(receiver.requests.length - before).toBe(5);
    expect(await attemptOffsets(deps, subscription.id, start)).toEqual([0, 120, 720, 2520, 9720]);
    // First attempt, then one message for 2 min, one for 10 min, 2 for 30 min, 8 for 2 h.
    expect(sqs.delays).toEqual([0, 120, 600, 900, 900, 900, 900, 900, 900, 900, 900, 900, 900]);
  });

  it('sends each attempt once when every message is delivered twice', async () => {
    const { sqs, deps, subscription, start, consumer } = await setup();
    const before = receiver.requests.length;
    let handled = 0;
    for (let event = sqs.next(); event; event = sqs.next()) {
      await consumer(event);
      await consumer(event); // at-least-once: the same message again
      handled += 1;
      expect(handled).toBeLessThan(200);
    }
    expect(receiver.requests.length - before).toBe(5);
    expect(await attemptOffsets(deps, subscription.id, start)).toEqual([0, 120, 720, 2520, 9720]);
  });

  it('takes over the first attempts of a message whose sender died, once its lease has expired', async () => {
    const { sqs, deps, subscription, consumer } = await setup();
    const first = sqs.next()!;
    // Another sender claims the message's first attempts and dies before sending.
    expect(await claimFirstAttempts(deps, first.Records[0]!.messageId, 'dead-sender', FIRST_ATTEMPTS_LEASE_MS)).toBe(true);
    const before = receiver.requests.length;
    // The lease is live: the message fails, to come back after its visibility timeout, and nothing is sent.
    expect((await consumer(first))?.batchItemFailures).toEqual([{ itemIdentifier: first.Records[0]!.messageId }]);
    expect(receiver.requests.length).toBe(before);
    sqs.clock += VISIBILITY_TIMEOUT_MS;
    await consumer(first);
    expect(receiver.requests.length).toBe(before + 1);
    expect((await listAttempts(deps, subscription.id, 10)).map((entry) => entry.attempt)).toEqual([1]);
  });

  it('stores the first attempts that ended when another of their message could not be made, and makes only that one again', async () => {
    const [accepting, other] = await Promise.all([startReceiver(() => 204), startReceiver(() => 204)]);
    const real = createWebhookSender({ allowLocal: true });
    let broken = true;
    // A sender that fails unexpectedly (not an HTTP failure: the attempt cannot be made) for one of the two URLs.
    const sender: WebhookSender = {
      send: (delivery) => (broken && delivery.url === other.url ? Promise.reject(new Error('sender crashed')) : real.send(delivery)),
      close: () => real.close(),
    };
    try {
      const sqs = new SimulatedSqs();
      const deps: Deps = { ...context.platform.deps, queue: sqs, now: () => new Date(sqs.clock) };
      const { workspaceId } = await createWorkspace(deps);
      const subscriptions = await Promise.all(
        [accepting, other].map((hook) => createSubscription(deps, workspaceId, { url: hook.url, events: ['agent.command.completed'] })),
      );
      await emitEvent(deps, workspaceId, 'agent.command.completed', completedData());
      const consumer = createWebhookConsumer(deps, sender);
      const message = sqs.next()!;
      expect(message.Records).toHaveLength(1);
      expect((await consumer(message))?.batchItemFailures).toEqual([{ itemIdentifier: message.Records[0]!.messageId }]);
      expect([accepting.requests.length, other.requests.length]).toEqual([1, 0]);

      broken = false;
      sqs.clock += VISIBILITY_TIMEOUT_MS;
      expect((await consumer(message))?.batchItemFailures).toEqual([]);
      expect([accepting.requests.length, other.requests.length]).toEqual([1, 1]);
      for (const subscription of subscriptions)
        expect((await listAttempts(deps, subscription.id, 10)).map((entry) => [entry.attempt, entry.ok])).toEqual([[1, true]]);
    } finally {
      real.close();
      await Promise.all([accepting.close(), other.close()]);
    }
  });

  it('recovers the next wake-up when enqueueing it failed: the redelivered message sends it again', async () => {
    const { sqs, deps, subscription, consumer } = await setup();
    const before = receiver.requests.length;
    const first = sqs.next()!;
    sqs.failSends = 1;
    const outcome = await consumer(first);
    expect(outcome?.batchItemFailures).toEqual([{ itemIdentifier: first.Records[0]!.messageId }]);
    expect(receiver.requests.length).toBe(before + 1);
    expect(sqs.waiting).toBe(0);

    sqs.clock += VISIBILITY_TIMEOUT_MS;
    await consumer(first); // SQS redelivers the failed message: no second attempt 1, but attempt 2 is scheduled again
    expect(receiver.requests.length).toBe(before + 1);
    for (let event = sqs.next(); event; event = sqs.next()) await consumer(event);
    expect((await listAttempts(deps, subscription.id, 10)).map((entry) => entry.attempt)).toEqual([5, 4, 3, 2, 1]);
  });
});
