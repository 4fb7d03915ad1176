import { DomainError, newEventId, WEBHOOK_TEST_EVENT } from '@service/shared';
import type { Deps } from '../../infra/deps';
import { FIRST_DELIVERY_SEQ, newDelivery } from './delivery-repository';
import { startDeliveries } from './first-attempts';
import { getSubscription } from './subscriptions';

/**
 * Sends the `webhook.test` event to one subscription ("Send test event"): a delivery like any other (signed, logged,
 * retried on schedule), whatever events the subscription chose. Its event id, for finding it in the delivery log.
 */
export async function sendTestEvent(deps: Deps, workspaceId: string, subscriptionId: string): Promise<string> {
  const subscription = await getSubscription(deps, workspaceId, subscriptionId);
  if (!subscription) throw new DomainError('NOT_FOUND', `No webhook subscription ${subscriptionId} in this workspace`, { field: 'webhook_id' });
  if (!subscription.active) {
    throw new DomainError('VALIDATION_ERROR', 'The subscription is disabled after repeated failures; delete it and create it again', { field: 'webhook_id' });
  }
  const eventId = newEventId();
  const data = { webhook_id: subscriptionId, message: 'A test event sent from the dashboard' };
  const payload = JSON.stringify({ id: eventId, event: WEBHOOK_TEST_EVENT, created_at: deps.now().toISOString(), data });
  await startDeliveries(deps, [newDelivery(deps.now(), { workspaceId, subscriptionId, eventId, event: WEBHOOK_TEST_EVENT, payload, seq: FIRST_DELIVERY_SEQ })]);
  return eventId;
}
