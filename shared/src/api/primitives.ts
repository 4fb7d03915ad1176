import { z } from 'zod';
import { RUN_ID_PATTERN } from '../ids';

export const uuid = (what: string) =>
  z.string({ error: `${what} is required` }).regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i, {
    error: `${what} must be a UUID (8-4-4-4-12 hex)`,
  });

export const runId = z.string({ error: 'run_id is required' }).regex(RUN_ID_PATTERN, { error: 'run_id must look like cmd_…' });
export const isoDateTime = z.iso.datetime({ offset: true, error: 'must be an ISO 8601 date-time with offset' });
export const isoDate = z.iso.date({ error: 'must be a date YYYY-MM-DD' });
export const text = (max: number) => z.string().trim().min(1).max(max);
export const email = z.email().max(254);
/** Query strings carry numbers as text. */
export const limitParam = z.coerce.number().int().min(1).max(100).default(20);
