import * as z from 'zod';
import { RUN_ID_MAX_LENGTH, UUID_PATTERN } from '../ids';

export const uuid = (what: string) => z.string({ error: `${what} is required` }).regex(UUID_PATTERN, { error: `${what} must be a UUID (8-4-4-4-12 hex)` });

export const runId = z
  .string({ error: 'run_id is required' })
  .max(RUN_ID_MAX_LENGTH)
  .regex(/^cmd_/, { error: 'run_id is the id agents/command returned, beginning cmd_' });
export const isoDateTime = z.iso.datetime({ offset: true, error: 'must be an ISO 8601 date-time with offset' });
export const isoDate = z.iso.date({ error: 'must be a date YYYY-MM-DD' });
export const text = (max: number) => z.string().trim().min(1).max(max);
export const email = z.email().max(254);
/** Query strings carry numbers as text. */
export const limitParam = z.coerce.number().int().min(1).max(100).default(20);

/** A secret in a create's answer: shown once, null on an idempotent replay (replays never store it). */
export const secretShownOnce = z.string().nullable().meta({ description: 'Shown once; null on an idempotent replay' });
export const secretAlreadyShown = z.boolean().meta({ description: 'True on an idempotent replay: the secret was shown once, in the first answer' });
