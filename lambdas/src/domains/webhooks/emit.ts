import { DomainError, newEventId } from '@service/shared';
import type { Deps } from '../../infra/deps';
import { deliveryKey, FIRST_DELIVERY_SEQ, getDelivery, newDelivery, newRedeliverySeq } from './delivery-repository';
import type { PlatformEvent, PlatformEventData } from './events';
import { startDeliveries } from './first-attempts';
import { sameTickReads } from './same-tick-reads';
import { skillsListening, skillTargetId } from './skill-targets';
import { getSubscription, listSubscriptions } from './subscriptions';

/**
 * The webhooks domain: subscriptions, the emit of workspace events to subscriptions and skills (this file), their
 * deliveries with signed, scheduled retries (deliverer.ts, schedule.ts), and the delivery log.
 */
const EVENT_ID_PATTERN = /^evt_[0-9A-Za-z]{8,64}$/;

/** A stable event id from a record or run id (a repeated emit for the same fact is then a no-op). */
export const eventIdFrom = (id: string) => `evt_${id.replace(/[^0-9A-Za-z]/g, '')}`;

/** The workspace's subscriptions, read once for all the events emitted in one turn of the event loop. */
const subscriptionsOf = sameTickReads(listSubscriptions);

/** An event about to be emitted: whom it goes to is being read already. */
export interface PreparedEmit<E extends PlatformEvent> {
  send(data: PlatformEventData[E], eventId?: string): Promise<{ eventId: string; deliveries: number }>;
}

/**
 * Starts reading who receives `event` (the workspace's active subscriptions that want it, and the skills listening), so
 * those reads can go beside the write of the fact the event reports; `send` then emits it as emitEvent does.
 */
export function prepareEmit<E extends PlatformEvent>(deps: Deps, workspaceId: string, event: E, also?: string): PreparedEmit<E> {
  const targets = Promise.all([
    subscriptionsOf(deps, workspaceId).then((all) => all.filter((subscription) => subscription.active && (subscription.events as string[]).includes(event))),
    skillsListening(deps, workspaceId, event, also),
  ]);
  // When the write it went beside failed first, nobody awaits these reads.
  targets.catch(() => undefined);
  return {
    async send(data, eventId = newEventId()) {
      if (!EVENT_ID_PATTERN.test(eventId)) throw new Error(`eventId must match ${EVENT_ID_PATTERN}`);
      const [subscriptions, skills] = await targets;
      const now = deps.now();
      const createdAt = now.toISOString();
      const deliveries = [
        // Webhooks: {id, event, created_at, data}, as @service/webhooks types it; skills: {type, id, created_at, data}, as POST /events reads it.
        ...subscriptions.map((subscription) => ({ target: subscription.id, payload: JSON.stringify({ id: eventId, event, created_at: createdAt, data }) })),
        ...skills.map((skill) => ({
          target: skillTargetId(workspaceId, skill.code),
          payload: JSON.stringify({ type: event, id: eventId, created_at: createdAt, data }),
        })),
      ];
      await startDeliveries(
        deps,
        deliveries.map(({ target, payload }) => newDelivery(now, { workspaceId, subscriptionId: target, eventId, event, payload, seq: FIRST_DELIVERY_SEQ })),
      );
      return { eventId, deliveries: deliveries.length };
    },
  };
}

/**
 * Emits a workspace event to every active webhook subscription that wants it and to every installed skill whose
 * manifest declares it (`also`: a skill that receives it even when no agent has it installed any more, as on its own
 * uninstall). Once this resolves, each delivery is on the durable queue (startDeliveries) and none can be lost. Pass a
 * stable `eventId` to make a repeated emit after a crash a no-op: a delivery already stored is not sent again.
 */
export function emitEvent<E extends PlatformEvent>(
  deps: Deps,
  workspaceId: string,
  event: E,
  data: PlatformEventData[E],
  options: { eventId?: string; also?: string } = {},
): Promise<{ eventId: string; deliveries: number }> {
  return prepareEmit(deps, workspaceId, event, options.also).send(data, options.eventId);
}

/** A fresh delivery (5 attempts of its own) of an event the subscription already received, with the same body and id. */
export async function redeliverEvent(deps: Deps, workspaceId: string, subscriptionId: string, eventId: string): Promise<void> {
  const subscription = await getSubscription(deps, workspaceId, subscriptionId);
  if (!subscription) throw new DomainError('NOT_FOUND', `No webhook subscription ${subscriptionId} in this workspace`, { field: 'webhook_id' });
  if (!subscription.active) {
    throw new DomainError('VALIDATION_ERROR', 'The subscription is disabled after repeated failures; delete it and create it again', { field: 'webhook_id' });
  }
  const original = EVENT_ID_PATTERN.test(eventId) ? await getDelivery(deps, subscriptionId, deliveryKey(eventId, FIRST_DELIVERY_SEQ)) : undefined;
  if (!original) throw new DomainError('NOT_FOUND', `Event ${eventId} was never delivered to subscription ${subscriptionId}`, { field: 'event_id' });
  const { workspaceId: ws, event, payload } = original;
  await startDeliveries(deps, [newDelivery(deps.now(), { workspaceId: ws, subscriptionId, eventId, event, payload, seq: newRedeliverySeq() })]);
}
