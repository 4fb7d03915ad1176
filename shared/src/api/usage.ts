import * as z from 'zod';
import { isoDate, uuid } from './primitives';

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
