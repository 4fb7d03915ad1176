import { createHash } from 'node:crypto';
import { CHAT_LIMITS } from '@service/shared/widget-protocol';
import { getAgent, type StoredAgent } from '../agents/agents';
import { appendEntryOnce, openConversation } from '../conversations/conversations';
import { readConversation } from '../conversations/conversation-state';
import { customerAddress, isOurMessage, noteThreadMessage, splitReplyAddress, threadOfMail } from '../conversations/mail-thread';
import type { ConversationMetaItem, StoredMessage } from '../conversations/conversations';
import { noteVisitorMessage } from '../insights/record';
import type { Deps } from '../../infra/deps';
import { authenticateMail } from './authenticate';
import { neverAnswered } from './never-answer';
import { parseMail, type ParsedMail } from './parse';
import { keepAttachments } from './attachments';
import { mailSeed } from './mail-view';
import { mailBlobs } from './receive';
import { readInboundMail, takeMailWork, updateInboundMail, type InboundMailItem } from './repository';

/** How long one worker holds a mail: threading it and the answer's bound, with room to spare. */
export const MAIL_WORK_MS = CHAT_LIMITS.replyMs + 60_000;

/** Another worker holds the mail: its message is retried later (not a failure). */
export class MailInWork extends Error {
  constructor(mailId: string) {
    super(`the mail ${mailId} is being worked`);
  }
}

/** A mail threaded into its conversation: the customer's entry is stored; the caller decides who answers. */
export interface ThreadedMail {
  mail: InboundMailItem;
  agent: StoredAgent;
  meta: ConversationMetaItem;
  entry: StoredMessage;
}

/** The visitor id of an e-mail customer: the same for every mail of one address to one workspace (export and erasure find it). */
export const customerVisitorId = (workspaceId: string, address: string) =>
  `email-${createHash('sha256').update(`${workspaceId}\n${address}`).digest('hex').slice(0, 32)}`;

/**
 * Works a stored mail up to its conversation (docs/email.md): parsed, its sender's verdicts, its attachments kept,
 * then held (a stranger writing to a conversation's address, or a mail failing DMARC for the customer's domain),
 * ignored (never answered: never-answer.ts), or its text stored as the customer's entry of the conversation its
 * reply address or headers name, else of a new one. Every step can be done again after a crash: the entry is stored
 * once per mail. Undefined: nothing more to do (held, ignored, or worked already).
 */
export async function threadMail(deps: Deps, mailId: string): Promise<ThreadedMail | 'answered' | undefined> {
  let mail = await readInboundMail(deps, mailId);
  if (!mail) return undefined;
  if (mail.state === 'answered') return 'answered';
  if (mail.state !== 'received' && mail.state !== 'threaded') return undefined;
  // One worker at a time: a queue redelivery or a sweep that comes while another works the mail is retried later
  // (two at once would both store and mail the answer); the lease lapses when its worker died.
  const now = deps.now();
  if (!(await takeMailWork(deps, mailId, now.toISOString(), new Date(now.getTime() + MAIL_WORK_MS).toISOString()))) throw new MailInWork(mailId);
  const raw = await mailBlobs(deps).get(mail.rawKey);
  if (!raw) throw new Error(`the raw mail ${mailId} is not in the blob store`);
  let parsed: ParsedMail;
  try {
    parsed = await parseMail(raw);
  } catch {
    await updateInboundMail(deps, mailId, ['received', 'threaded'], { state: 'ignored', reason: 'unreadable' });
    return undefined;
  }
  const verdicts =
    mail.verdicts ??
    (await authenticateMail(
      raw,
      { ip: mail.remote?.ip ?? '127.0.0.1', helo: mail.remote?.helo ?? 'localhost', sender: mail.envelopeFrom },
      deps.inboundMail?.resolver,
    ));
  const from = parsed.from?.address;
  const fields: Partial<InboundMailItem> = {
    verdicts,
    ...(from ? { from, customerKey: `${mail.workspaceId}#${from}` } : {}),
    ...(parsed.from?.name ? { fromName: parsed.from.name.slice(0, 200) } : {}),
    subject: parsed.subject,
    ...(parsed.messageId ? { messageId: parsed.messageId } : {}),
    text: parsed.newText,
    fullText: parsed.fullText,
    ...(parsed.safeHtml ? { html: parsed.safeHtml.slice(0, 200_000) } : {}),
    attachments: await keepAttachments(deps, mail, parsed, verdicts.virus !== 'fail'),
  };
  const agent = await getAgent(deps, mail.workspaceId, mail.agentId);
  const ignore =
    neverAnswered(parsed, mail.envelopeFrom, { agentMailDomain: deps.config.agentMailDomain, blockedSenders: deps.config.mailBlockedSenders }, verdicts) ??
    (parsed.messageId && (await isOurMessage(deps, agent.id, parsed.messageId)) ? 'own_mail' : undefined);
  // A bounce names the mail it returns in the headers it quotes (a DSN seldom has In-Reply-To).
  const answers = ignore === 'bounce' ? [...parsed.answers, ...(parsed.bounce?.bounced ?? [])] : parsed.answers;
  const found = await threadOfMail(deps, agent.id, { token: splitReplyAddress(mail.recipient).token, answers });
  if (ignore && ignore !== 'bounce') {
    await updateInboundMail(deps, mailId, ['received', 'threaded'], { ...fields, state: 'ignored', reason: ignore });
    return undefined;
  }
  let meta: ConversationMetaItem;
  if (found) {
    meta = await readConversation(deps, mail.workspaceId, found.conversationId);
    const customer = customerAddress(meta) ?? meta.visitorEmail;
    const why = ignore === 'bounce' ? 'bounce' : from !== customer ? 'not_the_customer' : verdicts.dmarc === 'fail' ? 'dmarc_failed' : undefined;
    if (why) {
      // Teammates see it as a note; the agent and the conversation's customer never do.
      await appendEntryOnce(deps, meta.conversationId, mailSeed(mailId), {
        role: 'note',
        content: why === 'bounce' ? bounceNote(parsed, from) : heldNote(why, from, parsed.subject),
      });
      await updateInboundMail(deps, mailId, ['received', 'threaded'], {
        ...fields,
        conversationId: meta.conversationId,
        state: why === 'bounce' ? 'ignored' : 'held',
        reason: why,
      });
      return undefined;
    }
  } else if (ignore === 'bounce' || !from) {
    await updateInboundMail(deps, mailId, ['received', 'threaded'], { ...fields, state: 'ignored', reason: ignore ?? 'no_sender' });
    return undefined;
  } else {
    // A new conversation, its id the mail's: working the mail again opens the same one.
    await openConversation(deps, {
      conversationId: mail.mailId,
      agentId: agent.id,
      workspaceId: agent.workspaceId,
      visitorId: customerVisitorId(agent.workspaceId, from),
      locale: agent.locale,
      email: { address: from, subject: parsed.subject || '(no subject)' },
    });
    meta = await readConversation(deps, mail.workspaceId, mail.mailId);
  }
  const entry = await appendEntryOnce(deps, meta.conversationId, mailSeed(mailId), {
    role: 'user',
    content: parsed.newText || parsed.subject || '(empty mail)',
  });
  if (parsed.messageId) await noteThreadMessage(deps, meta, parsed.messageId, false);
  await noteVisitorMessage(
    deps,
    { workspaceId: meta.workspaceId, agentId: meta.agentId, conversationId: meta.conversationId, channel: meta.channel ?? 'widget' },
    new Date(entry.createdAt),
  );
  mail = (await updateInboundMail(deps, mailId, ['received', 'threaded'], { ...fields, conversationId: meta.conversationId, state: 'threaded' })) ?? mail;
  return { mail, agent, meta: await readConversation(deps, mail.workspaceId, meta.conversationId), entry };
}

const HELD_WHY: Record<string, string> = {
  not_the_customer: "it is not from this conversation's customer",
  dmarc_failed: "it fails DMARC for the sender's domain (the From: may be forged)",
  bounce: 'it is a bounce (a delivery failure report) of a mail of this conversation',
};

/** What a teammate reads of a bounce of this conversation's mail: who it did not reach and the report's status (outside text, shown as text). */
function bounceNote(parsed: ParsedMail, from: string | undefined): string {
  const report = parsed.bounce;
  const status = [report?.status, report?.diagnostic].filter(Boolean).join(', ');
  return `A mail of this conversation${report?.recipient ? ` to ${report.recipient}` : ''} could not be delivered${status ? ` (${status})` : ''}: ${from ?? 'a mail server'} returned it; it was not answered.`;
}

const heldNote = (why: string, from: string | undefined, subject: string) =>
  `A mail from ${from ?? 'an unknown sender'} ("${subject}") was held and not shown to the agent: ${HELD_WHY[why] ?? why}.`;

/** Records how working the mail ended (answered, or ignored with why) once the caller is done with it. */
export const finishMail = (deps: Deps, mailId: string, end: { state: 'answered' } | { state: 'ignored' | 'held'; reason: string }) =>
  updateInboundMail(deps, mailId, ['threaded'], end);
