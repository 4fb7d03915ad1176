import { z } from 'zod';
import type { EndpointContract } from './endpoints';
import { EVENT_TYPES } from './account';
import { isoDateTime, limitParam } from './primitives';

const webhookId = z.string({ error: 'webhook_id is required' }).min(1).max(64);
const eventId = z.string({ error: 'event_id is required' }).regex(/^evt_[0-9A-Za-z]{8,64}$/, { error: 'event_id must look like evt_…' });

export const WebhookDeliveriesQuery = z.object({ webhook_id: webhookId, limit: limitParam });

export const WebhookAttempt = z
  .object({
    event_id: z.string(),
    event: z.enum(EVENT_TYPES),
    attempt: z.number().int().min(1).max(5).meta({ description: 'Attempt number within its delivery (1 to 5)' }),
    redelivery: z.boolean().meta({ description: 'True for attempts of a delivery requested with webhooks/redeliver' }),
    attempted_at: isoDateTime,
    http_status: z.number().int().nullable().meta({ description: 'Status the receiver answered; null when there was no response' }),
    duration_ms: z.number().int(),
    success: z.boolean().meta({ description: 'True when the receiver acknowledged with a 2xx' }),
    error: z.string().nullable().meta({ description: 'Why the attempt failed (status, timeout, connection, blocked address)' }),
  })
  .meta({ id: 'WebhookAttempt' });

export const WebhookRedeliverBody = z.object({ webhook_id: webhookId, event_id: eventId }).strict();

/** The delivery log and redelivery of a subscription; spread into ENDPOINTS. */
export const WEBHOOK_DELIVERY_ENDPOINTS = {
  webhooksDeliveries: {
    path: 'webhooks/deliveries',
    method: 'GET',
    summary: 'Recent delivery attempts of a subscription, newest first',
    query: WebhookDeliveriesQuery,
    data: z.object({ attempts: z.array(WebhookAttempt) }),
    status: 200,
  },
  webhooksRedeliver: {
    path: 'webhooks/redeliver',
    method: 'POST',
    summary: 'Deliver an event again to a subscription (same event id and body, a fresh retry schedule)',
    body: WebhookRedeliverBody,
    data: z.object({ webhook_id: z.string(), event_id: z.string(), queued: z.literal(true) }),
    status: 202,
    idempotent: true,
  },
} as const satisfies Record<string, EndpointContract>;
