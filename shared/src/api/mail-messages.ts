import * as z from 'zod';
import type { EndpointContract } from './contract';
import { uuid } from './primitives';

/**
 * An inbound mail as the inbox shows it (issue 38, docs/email.md): the `mail` of the transcript entry it made (the
 * customer's entry, or the note of a held mail) in conversations/get, and its attachments' download
 * (conversations/attachment). Spread into ENDPOINTS.
 */

/** Why a mail's sender is not verified (null: DMARC passed and it is the conversation's customer). */
export const MAIL_UNVERIFIED_REASONS = ['dmarc_failed', 'no_dmarc_pass', 'not_the_customer'] as const;
/** Why a mail waits for a teammate instead of joining its conversation. */
export const MAIL_HELD_REASONS = ['not_the_customer', 'dmarc_failed'] as const;
/** What a teammate did with a held mail. */
export const MAIL_HELD_DECISIONS = ['accepted', 'dismissed'] as const;
/** Where an accepted held mail goes: the conversation it was written to, or a conversation of its own (its sender the customer). */
export const MAIL_ACCEPT_INTO = ['conversation', 'new'] as const;
/** Why an attachment was listed but not kept (the caps of one mail). */
export const ATTACHMENT_REFUSALS = ['too_many', 'too_large', 'virus'] as const;

export const MailAttachment = z
  .object({
    index: z.number().int().meta({ description: 'Its place in the mail (conversations/attachment `index`)' }),
    filename: z.string().meta({ description: 'As the mail names it (text; never a path on any machine)' }),
    type: z.string().meta({ description: 'The content type the mail claims (not trusted: the download is served as a file, never shown)' }),
    bytes: z.number().int(),
    refused: z.enum(ATTACHMENT_REFUSALS).nullable().meta({
      description:
        'Not kept, so not downloadable: `too_many` past the count cap of one mail, `too_large` past the size cap, `virus` SES found a virus in the mail; null: kept',
    }),
  })
  .meta({ id: 'MailAttachment' });

export const MailOfMessage = z
  .object({
    mail_id: z.uuid(),
    from: z.string().nullable().meta({ description: 'The From: address (what the sender claims; see `unverified`)' }),
    from_name: z.string().nullable(),
    subject: z.string(),
    html: z.string().nullable().meta({
      description:
        'The HTML body, sanitized (no script, style, form, image or event handler): show it isolated (a sandboxed frame), never as the page’s own markup; null: a text mail',
    }),
    full_text: z
      .string()
      .meta({ description: 'The whole text as sent, quoted history and signature included (the entry’s `text` is only what the customer wrote now)' }),
    verdicts: z
      .object({ spf: z.string(), dkim: z.string(), dmarc: z.string() })
      .meta({ description: '`pass`, `fail`, `none`, `softfail`, `temperror`, … as the receiving side judged them' }),
    unverified: z.enum(MAIL_UNVERIFIED_REASONS).nullable().meta({
      description:
        'Why the sender is not verified: `dmarc_failed` (the From: may be forged), `no_dmarc_pass` (no DMARC pass), `not_the_customer`; null: verified',
    }),
    held: z
      .object({ reason: z.enum(MAIL_HELD_REASONS) })
      .nullable()
      .meta({
        description:
          'The mail was held for a teammate (the agent and the customer never saw it): `not_the_customer` a stranger wrote to the conversation’s address, `dmarc_failed`; it waits while `decided` is null; null: it joined the conversation',
      }),
    decided: z.enum(MAIL_HELD_DECISIONS).nullable().meta({
      description:
        'What a teammate did with a held mail: `accepted` (conversations/mail_accept), `dismissed` (conversations/mail_dismiss); null: not held, or not decided yet',
    }),
    attachments: z.array(MailAttachment),
  })
  .meta({ id: 'MailOfMessage', description: 'The inbound mail a transcript entry was made of (only on such entries)' });

export const ConversationAttachmentQuery = z.object({
  conversation_id: z.string({ error: 'conversation_id is required' }).min(1).max(200),
  mail_id: uuid('mail_id'),
  index: z.coerce.number({ error: 'index must be a number' }).int().min(0).max(99),
});

const heldMail = { conversation_id: ConversationAttachmentQuery.shape.conversation_id, mail_id: uuid('mail_id') };
export const MailAcceptBody = z
  .object({
    ...heldMail,
    into: z.enum(MAIL_ACCEPT_INTO).meta({
      description:
        '`conversation`: the mail joins the conversation it was written to, as its customer’s entry; `new`: it starts a conversation of its own with its sender, claimed by the signed-in teammate',
    }),
  })
  .strict();
export const MailDismissBody = z.object(heldMail).strict();

export const MAIL_MESSAGE_ENDPOINTS = {
  conversationsMailAccept: {
    path: 'conversations/mail_accept',
    method: 'POST',
    summary:
      'Accept a held mail (its `mail.held` in conversations/get): it joins the conversation, or starts its own (`into: new`, a signed-in teammate only: it is theirs). Accepting again answers where it went; a dismissed one is 400 VALIDATION_ERROR',
    body: MailAcceptBody,
    data: z.object({ conversation_id: z.string().meta({ description: 'The conversation the mail is now in' }) }),
    status: 200,
    access: 'conversations:reply',
  },
  conversationsMailDismiss: {
    path: 'conversations/mail_dismiss',
    method: 'POST',
    summary:
      'Dismiss a held mail: it stays a note for teammates, never reaches the agent or the customer. Dismissing again changes nothing; an accepted one is 400 VALIDATION_ERROR',
    body: MailDismissBody,
    data: z.object({ mail_id: z.uuid() }),
    status: 200,
    access: 'conversations:reply',
  },

  conversationsAttachment: {
    path: 'conversations/attachment',
    method: 'GET',
    summary:
      'Download an attachment of an inbound mail (signed-in teammates only: a dashboard session, never an API key): the bytes as a file, `Content-Disposition: attachment`, `X-Content-Type-Options: nosniff`, never a type a browser renders inline (404 CONVERSATION_NOT_FOUND for a conversation of no workspace of the caller, NOT_FOUND for a mail or attachment it does not have or did not keep)',
    query: ConversationAttachmentQuery,
    data: z
      .object({ workspace_id: z.uuid(), conversation_id: z.string(), mail_id: z.uuid(), attachment: MailAttachment })
      .meta({ description: 'What the pipeline checked, for the function that then serves the bytes' }),
    status: 200,
    access: 'read',
    file: {
      description:
        'The attachment’s bytes (Content-Disposition: attachment; a type browsers render, such as text/html or image/svg+xml, is served as application/octet-stream)',
    },
  },
} as const satisfies Record<string, EndpointContract>;
