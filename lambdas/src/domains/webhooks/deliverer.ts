import type { SQSRecord } from 'aws-lambda';
import { randomUUID } from 'node:crypto';
import * as z from 'zod';
import type { Deps } from '../../infra/deps';
import { eachRecordAtOnce, type QueueConsumer } from '../../infra/queue/queue';
import {
  claimAttempt,
  claimFirstAttempts,
  getDeliveries,
  getDelivery,
  logAttempt,
  putFirstAttempts,
  settleAttempt,
  takeHop,
  type AttemptMade,
  type AttemptOutcome,
  type StoredDelivery,
} from './delivery-repository';
import { deliveryOf, FirstAttemptsMessage } from './first-attempts';
import { enqueueWakeUp, nextAttemptDueAt, WakeUpMessage } from './schedule';
import { createWebhookSender, type WebhookSender } from './send';
import { MAX_CONSECUTIVE_FAILURES } from './subscriptions';
import { resolveTarget, type ClosedTarget, type DeliveryTarget } from './targets';
import { logger } from '../../infra/logger';

/** How long a claimed attempt belongs to its sender: well past the 5 s timeout, below the queue's visibility timeout. */
const ATTEMPT_LEASE_MS = 20_000;

/**
 * How long a message's first attempts belong to their sender: the WebhookDeliverer's timeout (cdk/lib/functions.ts),
 * since a batch's attempts to one host may wait their turn (send.ts); below the queue's visibility timeout in AWS.
 */
export const FIRST_ATTEMPTS_LEASE_MS = 60_000;

/**
 * The consumer of the `webhooks` queue. A message carries the first attempts of deliveries started together, or wakes
 * up a later attempt of one delivery; the delivery records decide what happens, so duplicates, early arrivals and
 * redeliveries of the at-least-once queue are all harmless.
 */
export function createWebhookConsumer(deps: Deps, sender: WebhookSender = createWebhookSender({ allowLocal: deps.config.webhookAllowLocal })): QueueConsumer {
  return eachRecordAtOnce(
    (record) => handleMessage(deps, sender, record),
    (record, error) => logger.error('webhook delivery failed to process; the queue will retry it', { messageId: record.messageId, error }),
  );
}

const QueueMessage = z.union([FirstAttemptsMessage, WakeUpMessage]);

function parseMessage(record: SQSRecord): z.infer<typeof QueueMessage> | undefined {
  try {
    const parsed = QueueMessage.safeParse(JSON.parse(record.body));
    if (parsed.success) return parsed.data;
  } catch {
    // fall through: not JSON
  }
  logger.error('webhooks queue: dropping a malformed message', { messageId: record.messageId });
  return undefined;
}

async function handleMessage(deps: Deps, sender: WebhookSender, record: SQSRecord): Promise<void> {
  const message = parseMessage(record);
  if (!message) return;
  if ('firstAttempts' in message) return handleFirstAttempts(deps, sender, message, record.messageId);
  return handleWakeUp(deps, sender, message, record.messageId);
}

/**
 * The first attempts of a message, sent together. Store calls, and why each is needed:
 * - claimFirstAttempts, one conditional UpdateItem per message: a redelivered or duplicated copy of the message waits
 *   until this sender is done or its lease ran out (it died), so no copy sends beside it;
 * - getDeliveries, one BatchGetItem per message: a delivery whose record exists was settled by an earlier copy (or a
 *   repeated emit of its event) and is not sent again;
 * - resolveTarget per delivery, rarely a read (see handleWakeUp);
 * - putFirstAttempts, BatchWriteItem calls once every attempt of the message has ended: each delivery's record and
 *   its log entry, so a later message finds it settled. A crash before they land sends the message's attempts again
 *   (at least once, as a sender that dies between its POST and settling does).
 */
async function handleFirstAttempts(deps: Deps, sender: WebhookSender, message: FirstAttemptsMessage, messageId: string): Promise<void> {
  if (!(await claimFirstAttempts(deps, messageId, randomUUID(), FIRST_ATTEMPTS_LEASE_MS))) {
    // Only a duplicate of a message another sender is working on: the queue brings it back after its visibility timeout.
    throw new Error('another sender holds these first attempts');
  }
  const deliveries = message.firstAttempts.map(deliveryOf);
  const stored = await getDeliveries(deps, deliveries);
  const fresh = deliveries.filter((delivery) => !stored.has(`${delivery.subscriptionId}\n${delivery.deliveryId}`));
  const attempts = await Promise.allSettled(
    fresh.map(async (delivery) => ({
      delivery,
      ...(await makeAttempt(deps, sender, delivery, await resolveTarget(deps, delivery.workspaceId, delivery.subscriptionId), messageId)),
    })),
  );
  // The attempts that ended are stored even when another could not be made: only that one is sent again.
  const ended = attempts.flatMap((attempt) => (attempt.status === 'fulfilled' ? [attempt.value] : []));
  await Promise.all([putFirstAttempts(deps, ended), ...ended.map(({ resetting }) => resetting)]);
  // Each pending one's next attempt; and again for those an earlier copy of this message settled, whose handler may
  // have died before enqueueing it.
  const pending = [...ended.map(({ delivery, outcome }) => ({ ...delivery, ...outcome })), ...stored.values()].filter(
    (delivery) => delivery.state === 'pending' && delivery.settledBy === messageId,
  );
  await Promise.all(pending.map((delivery) => enqueueWakeUp(deps, delivery)));
  const failed = attempts.find((attempt) => attempt.status === 'rejected');
  if (failed) throw failed.reason;
}

async function handleWakeUp(deps: Deps, sender: WebhookSender, message: WakeUpMessage, messageId: string): Promise<void> {
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
  if (claimed) {
    const { made, outcome, resetting } = await makeAttempt(deps, sender, claimed, target, messageId);
    const [, settled] = await Promise.all([made && logAttempt(deps, claimed, made), settleAttempt(deps, claimed, token, outcome), resetting]);
    // Not settled: another sender took the attempt over (this one overran its lease) and goes on from there.
    if (settled && outcome.state === 'pending') await enqueueWakeUp(deps, { ...claimed, ...outcome });
    return;
  }

  // Not claimable: the delivery record says why.
  const delivery = await getDelivery(deps, message.subscriptionId, message.deliveryId);
  if (!delivery || delivery.state === 'delivered' || delivery.state === 'failed' || delivery.state === 'cancelled') return;
  if (message.attempt !== delivery.attempt) {
    // The redelivery of the message that scheduled the current attempt: its handler may have died between settling the
    // delivery and enqueueing the wake-up, so enqueue it again (a duplicate is harmless). Other stale messages are
    // dropped, so duplicates never multiply.
    if (delivery.state === 'pending' && delivery.settledBy === messageId) await enqueueWakeUp(deps, delivery);
    return;
  }
  // Early (a hop of a delay longer than the queue allows): send it on with the remaining delay.
  if (delivery.state === 'pending') {
    if (await takeHop(deps, delivery, message.hop, messageId)) await enqueueWakeUp(deps, delivery, { hop: message.hop + 1 });
    return;
  }
  // Another sender holds this attempt: look again when its lease ends (it settles it, or it died and we take over).
  if (delivery.state === 'sending') return enqueueWakeUp(deps, delivery, { dueAt: delivery.leaseUntil, hop: message.hop });
}

/**
 * Makes one attempt of a claimed delivery (none to a closed target) and counts it for its target: the attempt made,
 * how the delivery goes on (the next attempt and when it is due, or a final state), and, after a success, the reset
 * of the target's failure counter under way.
 */
async function makeAttempt(
  deps: Deps,
  sender: WebhookSender,
  delivery: StoredDelivery,
  target: DeliveryTarget | ClosedTarget,
  messageId: string,
): Promise<{ made?: AttemptMade; outcome: AttemptOutcome; resetting?: Promise<void> }> {
  if ('closed' in target) return { outcome: { state: 'cancelled', error: target.closed } };
  const attemptedAt = deps.now();
  const made = { attemptedAt, ...(await sender.send(await target.request(delivery, attemptedAt))) };
  // The failure counter's reset goes on beside the caller's writes: the outcome does not wait for it.
  if (made.ok) return { made, outcome: { state: 'delivered' }, resetting: target.succeeded() };
  const error = made.error ?? 'failed';
  const counted = await target.failed();
  const dueAt = counted === 'counted' ? nextAttemptDueAt(delivery.attempt, deps.now(), deps.config.webhookRetryScale) : undefined;
  if (dueAt === undefined) {
    const reason = {
      counted: 'no attempts left',
      disabled: `subscription disabled after ${MAX_CONSECUTIVE_FAILURES} consecutive failures`,
      deleted: 'subscription deleted',
    }[counted];
    return { made, outcome: { state: 'failed', error: `${error}; ${reason}` } };
  }
  return { made, outcome: { state: 'pending', attempt: delivery.attempt + 1, dueAt, error, settledBy: messageId } };
}
