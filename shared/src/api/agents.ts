import * as z from 'zod';
import { jsonObject } from './json-input';
import { isoDateTime, limitParam, runId, text, uuid } from './primitives';

export const AUTONOMY_LEVELS = ['full', 'read_only'] as const;
export const RUN_STATUSES = ['queued', 'running', 'completed', 'failed', 'cancelled'] as const;

export const Agent = z
  .object({
    id: z.uuid(),
    name: z.string(),
    role: z.string(),
    preset: z.string(),
    persona: z.string(),
    email: z.string(),
    locale: z.string(),
    avatar_url: z.string(),
    skills: z.array(z.string()),
    created_at: isoDateTime,
  })
  .meta({ id: 'Agent' });

export const AgentIdQuery = z.object({ agent_id: uuid('agent_id') });
export const AgentIdBody = z.object({ agent_id: uuid('agent_id') }).strict();

export const CreateAgentBody = z
  .object({
    preset: z.string({ error: 'preset is required' }).min(1),
    name: text(80).optional(),
    role: text(120).optional(),
    persona: text(4000).optional(),
    locale: z.enum(['en', 'tr']).optional(),
  })
  .strict();

export const CommandBody = z
  .object({
    agent_id: uuid('agent_id'),
    instruction: text(10_000),
    data: jsonObject().optional(),
    autonomy: z.enum(AUTONOMY_LEVELS).optional(),
    schema: jsonObject().optional(),
  })
  .strict();

export const RunSummary = z
  .object({ run_id: z.string(), status: z.enum(RUN_STATUSES), autonomy: z.enum(AUTONOMY_LEVELS) })
  .meta({ id: 'RunSummary' });

export const CommandAccepted = z.object({ run: RunSummary.extend({ agent_id: z.uuid(), created_at: isoDateTime }) });

export const RunIdQuery = z.object({ run_id: runId });

export const Usage = z.object({ input_tokens: z.number().int(), output_tokens: z.number().int() }).meta({ id: 'TokenUsage' });

export const Run = z
  .object({
    run_id: z.string(),
    agent_id: z.uuid(),
    status: z.enum(RUN_STATUSES),
    autonomy: z.enum(AUTONOMY_LEVELS),
    instruction: z.string(),
    result_text: z.string().nullable(),
    output: z.record(z.string(), z.unknown()).nullable(),
    output_error: z.string().nullable(),
    error: z.string().nullable(),
    usage: Usage,
    created_at: isoDateTime,
    completed_at: isoDateTime.nullable(),
  })
  .meta({ id: 'Run' });

export const CancelBody = z.object({ run_id: runId }).strict();

export const RunsQuery = z.object({ agent_id: uuid('agent_id'), limit: limitParam });
