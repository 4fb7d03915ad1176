import * as z from 'zod';
import { isoDateTime } from './primitives';

/** The events a webhook subscription may name (webhooks/create). */
export const EVENT_TYPES = [
  'agent.command.completed',
  'agent.command.failed',
  'agent.command.action_required',
  'knowledge.source.synced',
  'knowledge.source.failed',
  'conversation.handoff_requested',
  'conversation.message_created',
  'conversation.closed',
  'eval.run.completed',
  'audit.event',
] as const;

export const WebhookCreateBody = z
  .object({
    url: z.url({ error: 'url must be an absolute URL' }).max(2048),
    events: z.array(z.enum(EVENT_TYPES)).min(1, { error: 'events must name at least one event' }).max(EVENT_TYPES.length),
  })
  .strict();

export const WebhookSubscription = z
  .object({
    id: z.string(),
    url: z.string(),
    events: z.array(z.enum(EVENT_TYPES)),
    active: z.boolean(),
    failure_count: z.number().int(),
    disabled_at: isoDateTime.nullable(),
    created_at: isoDateTime,
  })
  .meta({ id: 'WebhookSubscription' });

export const WebhookIdBody = z.object({ webhook_id: z.string().min(1).max(64) }).strict();
