import * as z from 'zod';
import { isoDate, isoDateTime, text, uuid } from './primitives';

export const EVENT_TYPES = ['agent.command.completed', 'agent.command.failed', 'agent.command.action_required'] as const;

export const SkillTool = z.object({ name: z.string(), capability: z.string(), description: z.string() });
export const Skill = z
  .object({
    code: z.string(),
    name: z.string(),
    description: z.string(),
    version: z.string(),
    source: z.enum(['builtin', 'registered']),
    tools: z.array(SkillTool),
  })
  .meta({ id: 'Skill' });

export const SkillInstallBody = z.object({ agent_id: uuid('agent_id'), skill_code: z.string().min(1).max(64) }).strict();
export const SkillInstallation = z.object({ agent_id: z.uuid(), skill_code: z.string(), installed: z.boolean() });

export const UsageQuery = z
  .object({ from: isoDate.optional(), to: isoDate.optional(), agent_id: uuid('agent_id').optional() })
  .refine((q) => !q.from || !q.to || q.from <= q.to, { error: 'from must not be after to', path: ['from'] });

const TokenTotals = z.object({ input_tokens: z.number().int(), output_tokens: z.number().int(), total_tokens: z.number().int(), runs: z.number().int() });
export const UsageReport = z.object({
  from: isoDate,
  to: isoDate,
  total: TokenTotals,
  by_day: z.array(TokenTotals.extend({ date: isoDate })),
  by_agent: z.array(TokenTotals.extend({ agent_id: z.uuid() })),
});

export const Billing = z.object({
  plan: z.string(),
  period: z.object({ start: isoDate, end: isoDate }),
  token_limit: z.number().int(),
  tokens_used: z.number().int(),
  tokens_remaining: z.number().int(),
  runs: z.number().int(),
});

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

export const ApiKey = z
  .object({
    id: z.string(),
    name: z.string(),
    prefix: z.string(),
    last4: z.string(),
    created_at: isoDateTime,
    last_used_at: isoDateTime.nullable(),
    revoked_at: isoDateTime.nullable(),
  })
  .meta({ id: 'ApiKey' });

export const KeyCreateBody = z.object({ name: text(80) }).strict();
export const KeyIdBody = z.object({ key_id: z.string().min(1).max(64) }).strict();
