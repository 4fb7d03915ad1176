import * as z from 'zod';
import type { EndpointContract } from './contract';
import { EVENT_TYPES } from './webhook-subscriptions';
import { isoDateTime, limitParam } from './primitives';

const webhookId = z.string({ error: 'webhook_id is required' }).min(1).max(64);
const eventId = z.string({ error: 'event_id is required' }).regex(/^evt_[0-9A-Za-z]{8,64}$/, { error: 'event_id must look like evt_…' });

/** The test event webhooks/test sends (never subscribed to: it goes to the one subscription named). */
export const WEBHOOK_TEST_EVENT = 'webhook.test';
/** What a receiver may get: the subscribable events and the test event. */
export const DELIVERED_EVENT_TYPES = [...EVENT_TYPES, WEBHOOK_TEST_EVENT] as const;

export const WebhookDeliveriesQuery = z.object({ webhook_id: webhookId, limit: limitParam });

export const WebhookAttempt = z
  .object({
    event_id: z.string(),
    event: z.enum(DELIVERED_EVENT_TYPES),
    attempt: z.number().int().min(1).max(5).meta({ description: 'Attempt number within its delivery (1 to 5)' }),
    redelivery: z.boolean().meta({ description: 'True for attempts of a delivery requested with webhooks/redeliver' }),
    attempted_at: isoDateTime,
    http_status: z.number().int().nullable().meta({ description: 'Status the receiver answered; null when there was no response' }),
    duration_ms: z.number().int(),
    success: z.boolean().meta({ description: 'True when the receiver acknowledged with a 2xx' }),
    error: z.string().nullable().meta({ description: 'Why the attempt failed (status, timeout, connection, blocked address)' }),
    body: z.string().nullable().meta({ description: 'The JSON body that was signed and sent (the event); null for an attempt logged before bodies were kept' }),
  })
  .meta({ id: 'WebhookAttempt' });

/** What installed skills receive at POST /events: the webhook events and the events only skills get. */
export const SKILL_EVENT_TYPES = [...EVENT_TYPES, 'contact.created', 'calendar.event_created', 'task.created', 'skill.installed', 'skill.uninstalled'] as const;

export const SkillDeliveriesQuery = z.object({
  skill_code: z.string({ error: 'skill_code is required' }).regex(/^[a-z][a-z0-9_-]{0,62}$/, { error: 'skill_code must be lowercase letters, digits, _ or -' }),
  limit: limitParam,
});

export const SkillEventAttempt = WebhookAttempt.extend({ event: z.enum(SKILL_EVENT_TYPES) }).meta({ id: 'SkillEventAttempt' });

export const WebhookTestBody = z.object({ webhook_id: webhookId }).strict();

export const WebhookRedeliverBody = z.object({ webhook_id: webhookId, event_id: eventId }).strict();

/** The delivery logs (of a subscription, of a skill's inbound events) and redelivery; spread into ENDPOINTS. */
export const WEBHOOK_DELIVERY_ENDPOINTS = {
  webhooksDeliveries: {
    path: 'webhooks/deliveries',
    method: 'GET',
    summary: 'Recent delivery attempts of a subscription, newest first',
    query: WebhookDeliveriesQuery,
    data: z.object({ attempts: z.array(WebhookAttempt) }),
    status: 200,
    access: 'read',
  },
  skillsDeliveries: {
    path: 'skills/deliveries',
    method: 'GET',
    summary: "Recent deliveries of the workspace's events to a registered skill (POST /events), newest first",
    query: SkillDeliveriesQuery,
    data: z.object({ attempts: z.array(SkillEventAttempt) }),
    status: 200,
    access: 'read',
  },
  webhooksRedeliver: {
    path: 'webhooks/redeliver',
    method: 'POST',
    summary: 'Deliver an event again to a subscription (same event id and body, a fresh retry schedule)',
    body: WebhookRedeliverBody,
    data: z.object({ webhook_id: z.string(), event_id: z.string(), queued: z.literal(true) }),
    status: 202,
    idempotent: true,
    access: 'manage',
  },
  webhooksTest: {
    path: 'webhooks/test',
    method: 'POST',
    summary: 'Send a webhook.test event to a subscription; answers the delivery it queued (see webhooks/deliveries)',
    body: WebhookTestBody,
    data: z.object({ webhook_id: z.string(), event_id: z.string(), event: z.literal(WEBHOOK_TEST_EVENT), queued: z.literal(true) }),
    status: 202,
    access: 'manage',
  },
} as const satisfies Record<string, EndpointContract>;
