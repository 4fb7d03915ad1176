import { ApiError, newEventId } from '@service/shared';
import type { WebhookEventData } from '@service/webhooks';
import type { Deps } from '../deps';
import { deliveryKey, FIRST_DELIVERY_SEQ, getDelivery, newDelivery, newRedeliverySeq, putDelivery, type StoredDelivery } from './deliveries';
import { enqueueWakeUp } from './schedule';
import { getSubscription, listSubscriptions, type EventType } from './subscriptions';


const EVENT_ID_PATTERN = /^evt_[0-9A-Za-z]{8,64}$/;

/**
 * Emits an event to every active subscription of the workspace that wants it: each delivery is stored first, then
 * its first attempt is enqueued (the queue is durable), so once this resolves no delivery can be lost.
 * Pass a stable `eventId` (e.g. derived from the run id) to make a repeated emit after a crash a no-op.
 */
export async function emitWebhookEvent<E extends EventType>(
  deps: Deps,
  workspaceId: string,
  event: E,
  data: WebhookEventData[E],
  options: { eventId?: string } = {},
): Promise<{ eventId: string; deliveries: number }> {
  const eventId = options.eventId ?? newEventId();
  if (!EVENT_ID_PATTERN.test(eventId)) throw new Error(`eventId must match ${EVENT_ID_PATTERN}`);
  const subscriptions = (await listSubscriptions(deps, workspaceId)).filter((subscription) => subscription.active && subscription.events.includes(event));
  if (subscriptions.length === 0) return { eventId, deliveries: 0 };
  const payload = JSON.stringify({ id: eventId, event, created_at: deps.now().toISOString(), data });
  await Promise.all(
    subscriptions.map((subscription) =>
      storeAndEnqueue(deps, newDelivery(deps, { workspaceId, subscriptionId: subscription.id, eventId, event, payload, seq: FIRST_DELIVERY_SEQ })),
    ),
  );
  return { eventId, deliveries: subscriptions.length };
}

async function storeAndEnqueue(deps: Deps, delivery: StoredDelivery): Promise<void> {
  const stored = await putDelivery(deps, delivery);
  // A repeated emit finds the delivery stored; its first wake-up may have been lost with the crash, so send it again
  // (a duplicate wake-up is harmless: the attempt claim lets only one through).
  if (stored.state === 'pending' && stored.attempt === 1) await enqueueWakeUp(deps, stored);
}

/** A fresh delivery (5 attempts of its own) of an event the subscription already received, with the same body and id. */
export async function redeliverEvent(deps: Deps, workspaceId: string, subscriptionId: string, eventId: string): Promise<void> {
  const subscription = await getSubscription(deps, workspaceId, subscriptionId);
  if (!subscription) throw new ApiError('NOT_FOUND', `No webhook subscription ${subscriptionId} in this workspace`, { field: 'webhook_id' });
  if (!subscription.active) {
    throw new ApiError('VALIDATION_ERROR', 'The subscription is disabled after repeated failures; delete it and create it again', { field: 'webhook_id' });
  }
  const original = EVENT_ID_PATTERN.test(eventId) ? await getDelivery(deps, subscriptionId, deliveryKey(eventId, FIRST_DELIVERY_SEQ)) : undefined;
  if (!original) throw new ApiError('NOT_FOUND', `Event ${eventId} was never delivered to subscription ${subscriptionId}`, { field: 'event_id' });
  const { workspaceId: ws, event, payload } = original;
  await storeAndEnqueue(deps, newDelivery(deps, { workspaceId: ws, subscriptionId, eventId, event, payload, seq: newRedeliverySeq() }));
}
