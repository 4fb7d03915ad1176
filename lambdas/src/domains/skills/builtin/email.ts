import { defineSkill, serviceApi } from '@service/skill-sdk';
import * as z from 'zod';

/**
 * Sends from the agent's own address: the platform knows the agent from the turn, so no address travels in the
 * tool's arguments. The platform keeps it in the workspace outbox (GET email/outbox) and delivers it through its
 * mail transport (locally the mailbox at GET /dev/mail.json, in AWS Amazon SES).
 */
export const emailSkill = defineSkill({
  code: 'email',
  version: '1.0.0',
  defaultLocale: 'en',
  locales: {
    en: { sent: 'E-mail to {to} sent from {from}' },
    tr: { sent: '{to} adresine {from} adresinden e-posta gönderildi' },
  },
  tools: {
    send: {
      description: "Send an e-mail from the agent's own address to a recipient, with a subject and a body",
      input: {
        to: z.email().describe('Recipient address'),
        subject: z.string().min(1).max(200),
        // Required: an e-mail is its body, and a model offered an optional one may leave it out.
        body: z.string().min(1).max(20_000).describe('The text of the e-mail'),
      },
      annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: true },
      handler: async (input, ctx) => {
        const sent = await serviceApi<{ message_id: string; from: string; to: string }>(ctx, 'skills/email/send', input);
        return { status: 'sent', ...sent, message: ctx.t('sent', { to: sent.to, from: sent.from }) };
      },
    },
  },
});
