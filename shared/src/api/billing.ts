import * as z from 'zod';
import { isoDate } from './primitives';

export const Billing = z.object({
  plan: z.string(),
  period: z.object({ start: isoDate, end: isoDate }),
  token_limit: z.number().int(),
  tokens_used: z.number().int(),
  tokens_remaining: z.number().int(),
  runs: z.number().int(),
});
