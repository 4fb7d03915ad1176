import type { SQSBatchItemFailure, SQSRecord } from 'aws-lambda';
import { randomUUID } from 'node:crypto';
import type { Deps } from '../../infra/deps';
import type { QueueConsumer } from '../../infra/queue/queue';
import { claimAttempt, getDelivery, logAttempt, settleAttempt, takeHop, type StoredDelivery } from './delivery-repository';
import { enqueueWakeUp, nextAttemptDueAt, WakeUpMessage } from './schedule';
import { createWebhookSender, type WebhookSender } from './send';
import { MAX_CONSECUTIVE_FAILURES } from './subscriptions';
import { resolveTarget, type ClosedTarget, type DeliveryTarget } from './targets';
import { logger } from '../../infra/logger';

/** How long a claimed attempt belongs to its sender: well past the 5 s timeout, below the queue's visibility timeout. */
const ATTEMPT_LEASE_MS = 20_000;

/**
 * The consumer of the `webhooks` queue. Each message wakes up one attempt of one delivery; the delivery record decides
 * what happens, so duplicates, early arrivals and redeliveries of the at-least-once queue are all harmless.
 */
export function createWebhookConsumer(deps: Deps, sender: WebhookSender = createWebhookSender({ allowLocal: deps.config.webhookAllowLocal })): QueueConsumer {
  return async (event) => {
    const failures: SQSBatchItemFailure[] = [];
    await Promise.all(
      event.Records.map(async (record) => {
        try {
          await handleWakeUp(deps, sender, record);
        } catch (error) {
          logger.error('webhook delivery failed to process; the queue will retry it', { messageId: record.messageId, error });
          failures.push({ itemIdentifier: record.messageId });
        }
      }),
    );
    return { batchItemFailures: failures };
  };
}

function parseMessage(record: SQSRecord): WakeUpMessage | undefined {
  try {
    const parsed = WakeUpMessage.safeParse(JSON.parse(record.body));
    if (parsed.success) return parsed.data;
  } catch {
    // fall through: not JSON
  }
  logger.error('webhooks queue: dropping a malformed message', { messageId: record.messageId });
  return undefined;
}

async function handleWakeUp(deps: Deps, sender: WebhookSender, record: SQSRecord): Promise<void> {
  const message = parseMessage(record);
  if (!message) return;
  const token = randomUUID();
  // The common case first: the attempt is due and free. Its target (subscription or skill) is read alongside.
  // Store calls of a delivery that succeeds at once, and why each is needed:
  // - claimAttempt, one conditional UpdateItem: the only guard against sending an attempt twice (queue messages come
  //   at least once, a redelivered message must not resend), and it answers the delivery record with the payload;
  // - resolveTarget: the URL and signing secret, and whether the subscription is still active; a GetItem at most once
  //   per SUBSCRIPTION_KEPT_MS per container, not per delivery;
  // - logAttempt, a share of one BatchWriteItem: the delivery log's entry for this attempt;
  // - settleAttempt, one conditional UpdateItem: `delivered`, so no later message sends it again, only if this sender
  //   still holds the claim.
  const [claimed, target] = await Promise.all([
    claimAttempt(deps, message, token, ATTEMPT_LEASE_MS),
    resolveTarget(deps, message.workspaceId, message.subscriptionId),
  ]);
  if (claimed) return attempt(deps, sender, claimed, token, target, record.messageId);

  // Not claimable: the delivery record says why.
  const delivery = await getDelivery(deps, message.subscriptionId, message.deliveryId);
  if (!delivery || delivery.state === 'delivered' || delivery.state === 'failed' || delivery.state === 'cancelled') return;
  if (message.attempt !== delivery.attempt) {
    // The redelivery of the message that scheduled the current attempt: its handler may have died between settling the
    // delivery and enqueueing the wake-up, so enqueue it again (a duplicate is harmless). Other stale messages are
    // dropped, so duplicates never multiply.
    if (delivery.state === 'pending' && delivery.settledBy === record.messageId) await enqueueWakeUp(deps, delivery);
    return;
  }
  // Early (a hop of a delay longer than the queue allows): send it on with the remaining delay.
  if (delivery.state === 'pending') {
    if (await takeHop(deps, delivery, message.hop, record.messageId)) await enqueueWakeUp(deps, delivery, { hop: message.hop + 1 });
    return;
  }
  // Another sender holds this attempt: look again when its lease ends (it settles it, or it died and we take over).
  if (delivery.state === 'sending') return enqueueWakeUp(deps, delivery, { dueAt: delivery.leaseUntil, hop: message.hop });
}

async function attempt(
  deps: Deps,
  sender: WebhookSender,
  delivery: StoredDelivery,
  token: string,
  target: DeliveryTarget | ClosedTarget,
  messageId: string,
): Promise<void> {
  if ('closed' in target) {
    await settleAttempt(deps, delivery, token, { state: 'cancelled', error: target.closed });
    return;
  }
  const attemptedAt = deps.now();
  const result = await sender.send(await target.request(delivery, attemptedAt));
  const logged = logAttempt(deps, delivery, { attemptedAt, ...result });

  if (result.ok) {
    await Promise.all([logged, settleAttempt(deps, delivery, token, { state: 'delivered' }), target.succeeded()]);
    return;
  }
  const error = result.error ?? 'failed';
  const [, counted] = await Promise.all([logged, target.failed()]);
  const dueAt = counted === 'counted' ? nextAttemptDueAt(delivery.attempt, deps.now(), deps.config.webhookRetryScale) : undefined;
  if (dueAt === undefined) {
    const reason = {
      counted: 'no attempts left',
      disabled: `subscription disabled after ${MAX_CONSECUTIVE_FAILURES} consecutive failures`,
      deleted: 'subscription deleted',
    }[counted];
    await settleAttempt(deps, delivery, token, { state: 'failed', error: `${error}; ${reason}` });
    return;
  }
  const next = { state: 'pending' as const, attempt: delivery.attempt + 1, dueAt, error, settledBy: messageId };
  if (await settleAttempt(deps, delivery, token, next)) await enqueueWakeUp(deps, { ...delivery, ...next });
}
