import { WEBHOOK_TEST_EVENT } from '@service/shared';
import { skillAttempts, subscriptionAttempts, type AttemptLogEntry } from '../../../domains/webhooks/delivery-log';
import { redeliverEvent } from '../../../domains/webhooks/emit';
import type { PlatformEvent } from '../../../domains/webhooks/events';
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
  body: entry.body ?? null,
});

export const webhookDeliveryEndpoints: EndpointHandlers<'webhooksDeliveries' | 'skillsDeliveries' | 'webhooksRedeliver' | 'webhooksTest'> = {
  webhooksDeliveries: async ({ deps, workspace, query }) => ({
    data: { attempts: (await subscriptionAttempts(deps, workspace.id, query.webhook_id, query.limit)).map(toAttemptResponse) },
  }),

  skillsDeliveries: async ({ deps, workspace, query }) => ({
    data: { attempts: (await skillAttempts(deps, workspace.id, query.skill_code, query.limit)).map(toAttemptResponse) },
  }),

  webhooksRedeliver: async ({ deps, workspace, body }) => {
    await redeliverEvent(deps, workspace.id, body.webhook_id, body.event_id);
    return { data: { webhook_id: body.webhook_id, event_id: body.event_id, queued: true as const }, msg: 'Redelivery queued' };
  },

  webhooksTest: async ({ deps, workspace, body }) => {
    const eventId = await sendTestEvent(deps, workspace.id, body.webhook_id);
    return {
      data: { webhook_id: body.webhook_id, event_id: eventId, event: WEBHOOK_TEST_EVENT, queued: true as const },
      msg: 'Test event queued; see webhooks/deliveries',
    };
  },
};
