import { ApiError, WEBHOOK_TEST_EVENT } from '@service/shared';
import { listAttempts, type AttemptLogEntry } from '../../../domains/webhooks/deliveries';
import { redeliverEvent } from '../../../domains/webhooks/emit';
import type { PlatformEvent } from '../../../domains/webhooks/events';
import { findRegisteredSkill } from '../../../domains/skills/registry';
import { skillTargetId } from '../../../domains/webhooks/skill-targets';
import { getSubscription, type EventType } from '../../../domains/webhooks/subscriptions';
import { sendTestEvent } from '../../../domains/webhooks/test-event';
import type { EndpointHandlers } from './types';

const toAttemptResponse = <E extends PlatformEvent>(entry: AttemptLogEntry<E>) => ({
  event_id: entry.eventId,
  event: entry.event,
  attempt: entry.attempt,
  redelivery: entry.redelivery,
  attempted_at: entry.attemptedAt,
  http_status: entry.httpStatus ?? null,
  duration_ms: entry.durationMs,
  success: entry.ok,
  error: entry.error ?? null,
});

export const webhookDeliveryEndpoints: EndpointHandlers<'webhooksDeliveries' | 'skillsDeliveries' | 'webhooksRedeliver' | 'webhooksTest'> = {
  webhooksDeliveries: async ({ deps, workspace, query }) => {
    // The log is keyed by subscription: check it belongs to the caller's workspace first.
    if (!(await getSubscription(deps, workspace.id, query.webhook_id))) {
      throw new ApiError('NOT_FOUND', `No webhook subscription ${query.webhook_id} in this workspace`, { field: 'webhook_id' });
    }
    // A subscription's log: the events it subscribed to, and the test events sent to it (webhooks/test).
    return { data: { attempts: (await listAttempts<EventType | typeof WEBHOOK_TEST_EVENT>(deps, query.webhook_id, query.limit)).map(toAttemptResponse) } };
  },

  skillsDeliveries: async ({ deps, workspace, query }) => {
    if (!(await findRegisteredSkill(deps, workspace.id, query.skill_code))) {
      throw new ApiError('NOT_FOUND', `No registered skill ${query.skill_code} in this workspace`, { field: 'skill_code' });
    }
    // Skills never receive the test event of a webhook subscription.
    const attempts = await listAttempts<Exclude<PlatformEvent, typeof WEBHOOK_TEST_EVENT>>(deps, skillTargetId(workspace.id, query.skill_code), query.limit);
    return { data: { attempts: attempts.map(toAttemptResponse) } };
  },

  webhooksRedeliver: async ({ deps, workspace, body }) => {
    await redeliverEvent(deps, workspace.id, body.webhook_id, body.event_id);
    return { data: { webhook_id: body.webhook_id, event_id: body.event_id, queued: true as const }, msg: 'Redelivery queued' };
  },

  webhooksTest: async ({ deps, workspace, body }) => {
    const eventId = await sendTestEvent(deps, workspace.id, body.webhook_id);
    return { data: { webhook_id: body.webhook_id, event_id: eventId, event: WEBHOOK_TEST_EVENT, queued: true as const }, msg: 'Test event queued; see webhooks/deliveries' };
  },
};
