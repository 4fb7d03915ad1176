import { z } from 'zod';
import { CHAT_LIMITS } from '@service/shared/widget-protocol';
import { LIVE_LIMITS } from '@service/shared/live-conversation';

/** The body of POST /v1/agents/{agentId}/chat, as the widget panel sends it (the type: ChatRequest in shared). */
export const ChatRequestSchema = z
  .object({
    conversationId: z.uuid(),
    visitorId: z.uuid(),
    locale: z.enum(['en', 'tr']).default('en'),
    messages: z
      .array(z.object({ role: z.enum(['user', 'assistant']), content: z.string().trim().min(1).max(CHAT_LIMITS.messageChars) }))
      .min(1)
      .max(CHAT_LIMITS.messages),
    context: z
      .object({
        system: z.array(z.string().max(CHAT_LIMITS.messageChars)).max(CHAT_LIMITS.systemPrompts).default([]),
        data: z.record(z.string(), z.unknown()).default({}),
      })
      .default({ system: [], data: {} }),
    page: z.object({ url: z.string().max(2000), title: z.string().max(300) }).optional(),
    /** The visitor's browser language (navigator.language): a hint for the conversation language, ignored when not one. */
    language: z.string().max(100).optional(),
    /** The visitor's "Talk to a person": the message goes to people, never to the agent. */
    handoff: z.boolean().optional(),
    /** The address the visitor leaves in the widget's e-mail field, once nobody was available (text only, validated). */
    email: z.email().max(LIVE_LIMITS.emailChars).optional(),
  })
  .refine((body) => body.messages.at(-1)?.role === 'user', { message: "The last message must be the visitor's", path: ['messages'] })
  .refine((body) => JSON.stringify(body.context.data).length <= CHAT_LIMITS.contextJsonChars, {
    message: `context.data is limited to ${CHAT_LIMITS.contextJsonChars} characters of JSON`,
    path: ['context', 'data'],
  });

export type ChatRequestBody = z.infer<typeof ChatRequestSchema>;

/** The visitor's answer to a `confirm` event (the type: ChatDecision in shared). */
export const ChatDecisionSchema = z.strictObject({
  conversationId: z.uuid(),
  visitorId: z.uuid(),
  locale: z.enum(['en', 'tr']).default('en'),
  actionId: z.uuid(),
  confirm: z.boolean(),
});

export type ChatDecisionBody = z.infer<typeof ChatDecisionSchema>;
