import * as z from 'zod';
import { isoDateTime, text } from './primitives';

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
