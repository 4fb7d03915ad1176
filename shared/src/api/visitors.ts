import * as z from 'zod';
import type { EndpointContract } from './contract';
import { isoDateTime, limitParam } from './primitives';
import { ConversationMessage, ConversationSummary } from './conversations';
import { RETENTION_DAYS } from '../retention';

/**
 * A visitor's data (issue 29, item 6; e-mail customers: issue 38): everything stored about one visitor, exported as JSON or erased with an
 * audit record, and how long a workspace keeps conversations. Spread into ENDPOINTS.
 */

const visitorId = z
  .uuid({ error: 'visitor_id is the widget visitor id (a UUID)' })
  .meta({ description: "The widget's visitor id (the `visitor.id` of a conversation)" });
const verifiedUserId = z
  .string()
  .regex(/^[\x21-\x7e]{1,200}$/, { error: 'verified_user_id is the id the host signed: 1 to 200 printable ASCII characters' })
  .meta({ description: 'The id the host site signed for a verified visitor (the `visitor.verified_user_id` of a conversation)' });

const email = z
  .email({ error: 'email is the address a customer wrote from' })
  .max(254)
  .transform((address) => address.toLowerCase())
  .meta({ description: 'The address an e-mail customer wrote from (`conversation.email.address`): their mails, attachments and conversations' });

/** Exactly one of the three. */
export const VisitorBody = z
  .object({ visitor_id: visitorId.optional(), verified_user_id: verifiedUserId.optional(), email: email.optional() })
  .strict()
  .refine((body) => [body.visitor_id, body.verified_user_id, body.email].filter((id) => id !== undefined).length === 1, {
    error: 'Name the visitor by exactly one of visitor_id, verified_user_id and email',
    path: ['visitor_id'],
  });

/** An inbound mail as an export shows it: the record and the raw message as received (its attachments are in it). */
export const VisitorExportMail = z
  .object({
    mail_id: z.string(),
    received_at: isoDateTime,
    from: z.string().nullable(),
    to: z.string(),
    subject: z.string().nullable(),
    state: z.string().meta({ description: '`received`, `threaded`, `answered`, `held` or `ignored` (docs/email.md)' }),
    reason: z.string().nullable(),
    conversation_id: z.string().nullable(),
    verdicts: z.object({ spf: z.string(), dkim: z.string(), dmarc: z.string() }).nullable(),
    text: z.string().nullable().meta({ description: 'The new text of the mail, as the agent read it' }),
    attachments: z.array(z.object({ filename: z.string(), type: z.string(), bytes: z.number().int(), stored: z.boolean() })),
    raw_bytes: z.number().int(),
    raw_mime: z
      .string()
      .nullable()
      .meta({ description: 'The message as received (MIME, attachments included), up to 1 MB; null past that or when it is no longer stored' }),
  })
  .meta({ id: 'VisitorExportMail' });

export const VisitorPendingAction = z
  .object({
    id: z.string(),
    tool_name: z.string(),
    summary: z.string(),
    input: z.record(z.string(), z.unknown()),
    expires_at: isoDateTime,
  })
  .meta({ id: 'VisitorPendingAction', description: 'An action the agent proposed in the widget, waiting for the visitor to confirm it' });

export const VisitorExport = z
  .object({
    exported_at: isoDateTime,
    visitor: z.object({ visitor_id: z.string().nullable(), verified_user_id: z.string().nullable(), email: z.string().nullable() }),
    conversations: z.array(
      z.object({ conversation: ConversationSummary, messages: z.array(ConversationMessage), pending_actions: z.array(VisitorPendingAction) }),
    ),
    contacts: z.array(z.record(z.string(), z.unknown())).meta({ description: 'Contacts the agent created in these conversations (the contacts skill)' }),
    webhook_deliveries: z
      .array(z.object({ subscription_id: z.string(), event_id: z.string(), event: z.string(), created_at: isoDateTime, payload: z.string() }))
      .meta({ description: 'Webhook deliveries about these conversations (their payloads carry message text)' }),
    mails: z
      .array(VisitorExportMail)
      .meta({ description: 'Inbound mails of these conversations, and every mail of the address when the visitor is named by `email`' }),
  })
  .meta({ id: 'VisitorExport' });

export const ErasureCounts = z
  .object({
    conversations: z.number().int(),
    messages: z.number().int(),
    pending_actions: z.number().int(),
    contacts: z.number().int(),
    webhook_deliveries: z.number().int(),
    stored_responses: z.number().int().meta({ description: 'Idempotent replies stored for replay that named the visitor' }),
    unanswered_questions: z.number().int().meta({ description: 'Questions of theirs the knowledge could not answer' }),
    mails: z.number().int().meta({ description: 'Inbound mail records' }),
    mail_files: z.number().int().meta({ description: 'Their stored files: raw messages and attachments' }),
  })
  .meta({ id: 'ErasureCounts' });

export const Erasure = z
  .object({
    id: z.string(),
    state: z.enum(['in_progress', 'completed']).meta({ description: '`in_progress` until every part is gone; a retry (or the sweeper) finishes it' }),
    reason: z.enum(['request', 'retention']).meta({ description: '`request`: visitors/erase; `retention`: the workspace’s retention setting' }),
    requested_by: z.object({ kind: z.enum(['member', 'api_key', 'retention']), id: z.string().nullable(), name: z.string().nullable() }),
    visitor_hash: z.string().nullable().meta({
      description:
        'SHA-256 of the workspace and the visitor id (or the verified user id, or the e-mail address): which visitor, without keeping who; null for a retention erasure (many visitors)',
    }),
    started_at: isoDateTime,
    completed_at: isoDateTime.nullable(),
    removed: ErasureCounts.meta({ description: 'What was found and removed' }),
  })
  .meta({ id: 'Erasure' });

export const AuditQuery = z.object({ limit: limitParam, cursor: z.string().max(500).optional().meta({ description: 'next_cursor of the previous page' }) });

const retention = z
  .union([...RETENTION_DAYS.map((days) => z.literal(days)), z.null()])
  .meta({ description: 'Days after a conversation’s last activity before it is erased (30, 90 or 365); null keeps conversations' });
export const RetentionBody = z.object({ days: retention }).strict();
const Retention = z.object({ days: retention });
/** How the workspace's widget visitors may prove who they are (docs/widget.md, Verified visitors). */
export const VisitorIdentitySettings = z
  .object({
    allow_user_hmac: z
      .boolean()
      .meta({ description: 'Also take the older never-expiring HMAC user hash (x-user-hash) besides signed tokens; off for new workspaces' }),
  })
  .meta({ id: 'VisitorIdentitySettings' });

export const VISITOR_ENDPOINTS = {
  visitorsExport: {
    path: 'visitors/export',
    method: 'POST',
    summary:
      'Everything stored about a visitor as JSON: conversations with every message, identity, pending actions, contacts the agent created, webhook deliveries about them (POST: the visitor id stays out of URLs and logs)',
    body: VisitorBody,
    data: VisitorExport,
    status: 200,
    access: 'visitors:manage',
  },
  visitorsErase: {
    path: 'visitors/erase',
    method: 'POST',
    summary:
      'Erase a visitor’s conversations and what derives from them everywhere, and keep an audit record (visitors/audit_list); a retry finishes an erasure a crash interrupted. A reply or message to an erased conversation gets 410 CONVERSATION_ERASED',
    body: VisitorBody,
    data: z.object({ erasure: Erasure }),
    status: 200,
    idempotent: true,
    access: 'visitors:manage',
  },
  visitorsAuditList: {
    path: 'visitors/audit_list',
    method: 'GET',
    summary: 'The erasures of the workspace, newest first: who, when, which visitor (hashed) and what was removed',
    query: AuditQuery,
    data: z.object({ erasures: z.array(Erasure), next_cursor: z.string().nullable() }),
    status: 200,
    access: 'visitors:manage',
  },
  visitorsRetentionGet: {
    path: 'visitors/retention_get',
    method: 'GET',
    summary: 'How long the workspace keeps conversations after their last activity',
    data: z.object({ retention: Retention }),
    status: 200,
    access: 'visitors:manage',
  },
  visitorsRetentionSet: {
    path: 'visitors/retention_set',
    method: 'POST',
    summary:
      'Set how long conversations are kept (30, 90, 365 days after their last activity, or null: keep); applies to existing conversations at the next sweep',
    body: RetentionBody,
    data: z.object({ retention: Retention }),
    status: 200,
    access: 'visitors:manage',
  },
  visitorsIdentityGet: {
    path: 'visitors/identity_get',
    method: 'GET',
    summary: "How the workspace's widget visitors prove who they are: signed tokens, and whether the older user hash is still taken",
    data: z.object({ identity: VisitorIdentitySettings }),
    status: 200,
    access: 'manage',
  },
  visitorsIdentitySet: {
    path: 'visitors/identity_set',
    method: 'POST',
    summary: 'Allow or refuse the older HMAC user hash (it never expires); signed visitor tokens are always taken',
    body: VisitorIdentitySettings.strict(),
    data: z.object({ identity: VisitorIdentitySettings }),
    status: 200,
    access: 'manage',
  },
} as const satisfies Record<string, EndpointContract>;
