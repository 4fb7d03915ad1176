import { z } from 'zod';
import { RATING_LIMITS, type RatingRequest } from '@service/shared/widget-protocol';

/** The body of POST /v1/agents/{agentId}/rating, as the widget sends it (the type: RatingRequest in shared). */
export const RatingRequestSchema = z.strictObject({
  conversationId: z.uuid(),
  visitorId: z.uuid(),
  messageId: z.string().regex(/^msg_\d{6}$/, { error: 'messageId is the id of the done event of the answer rated' }),
  rating: z.enum(['up', 'down']),
  // Blank is no comment; control characters other than line breaks never reach the dashboard.
  comment: z
    .string()
    .max(RATING_LIMITS.commentChars)
    .transform((text) => text.replace(/[^\P{Cc}\n\t]/gu, '').trim())
    .optional(),
}) satisfies z.ZodType<RatingRequest, unknown>;

export type RatingRequestBody = z.infer<typeof RatingRequestSchema>;
