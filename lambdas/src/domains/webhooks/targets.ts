import type { Deps } from '../../infra/deps';
import type { StoredDelivery } from './delivery-repository';
import type { SignedDelivery } from './send';
import { findSkillTarget, isSkillTarget, skillEventHeaders } from './skill-targets';
import { countFailure, getSubscriptionToDeliver, recordDeliverySuccess } from './subscriptions';

/** Where a delivery goes: a webhook subscription or a skill's POST /events, behind one interface for the deliverer. */
export interface DeliveryTarget {
  /** The request of one attempt, signed at `signedAt`. */
  request(delivery: StoredDelivery, signedAt: Date): Promise<SignedDelivery>;
  succeeded(): Promise<void>;
  /** Counts a failed attempt; says whether attempts may go on. */
  failed(): Promise<'counted' | 'disabled' | 'deleted'>;
}

/** A target nothing is sent to any more, and why. */
export interface ClosedTarget {
  closed: string;
}

export async function resolveTarget(deps: Deps, workspaceId: string, targetId: string): Promise<DeliveryTarget | ClosedTarget> {
  if (isSkillTarget(targetId)) {
    const skill = await findSkillTarget(deps, workspaceId, targetId);
    const url = skill?.eventsUrl;
    if (!skill || !url) return { closed: 'skill no longer registered' };
    return {
      request: async (delivery, signedAt) => ({
        url,
        id: delivery.eventId,
        event: delivery.event,
        payload: delivery.payload,
        // Signed with the skill's own key as well; the skill authenticates the call by its bearer and the turn token.
        signingSecret: skill.turnTokenSecret,
        signedAt,
        headers: await skillEventHeaders(workspaceId, skill),
      }),
      succeeded: async () => undefined,
      // No failure counter: a skill is not disabled by its deliveries; each event has its own five attempts.
      failed: async () => 'counted',
    };
  }
  const subscription = await getSubscriptionToDeliver(deps, workspaceId, targetId);
  if (!subscription) return { closed: 'subscription deleted' };
  if (!subscription.active) return { closed: 'subscription disabled' };
  return {
    request: async (delivery, signedAt) => ({
      url: subscription.url,
      id: delivery.eventId,
      event: delivery.event,
      payload: delivery.payload,
      signingSecret: subscription.signingSecret,
      signedAt,
    }),
    succeeded: () => recordDeliverySuccess(deps, workspaceId, targetId, subscription),
    failed: () => countFailure(deps, subscription),
  };
}
