import { createHash } from 'node:crypto';
import { randomBase62 } from '@service/shared';
import type { Deps } from '../../infra/deps';
import type { MailMessage } from '../../infra/mail/mail';
import { sendMail } from '../../infra/mail/send';
import {
  putMailThread,
  putThreadMessage,
  putTokenPointer,
  readMailThread,
  readThreadMessage,
  readTokenPointer,
  type MailThreadItem,
} from './mail-thread-repository';
import { conversationExpiry } from './retention';
import type { ConversationMetaItem } from './repository';

/**
 * E-mail threads of conversations (docs/email.md): every mail we send for a conversation carries its reply address
 * (the agent's address plus-addressed with the conversation's random token: `name.id+token@domain`) and the thread's
 * Message-ID, In-Reply-To and References; an inbound mail finds its conversation by that address first, by its
 * headers second. The Message-ID kept is the one the transport answers (SES replaces ours).
 */

/** The token's length in base62 characters (~143 bits: not guessable). */
const TOKEN_CHARS = 24;
const TOKEN = /^[0-9A-Za-z]{24}$/;

const messageHash = (messageId: string) => createHash('sha256').update(messageId.trim().toLowerCase()).digest('hex').slice(0, 40);

/** Where an answer to a mail of this conversation goes: the agent's address with the token after a `+`. */
export function replyAddress(agentEmail: string, token: string): string {
  const [local, domain] = agentEmail.split('@') as [string, string];
  return `${local}+${token}@${domain}`;
}

/** The agent address and the token of a recipient (`name.id+token@domain`); no token for the agent's plain address. */
export function splitReplyAddress(address: string): { base: string; token?: string } {
  const [local = '', domain = ''] = address.toLowerCase().split('@');
  const plus = local.indexOf('+');
  if (plus < 0) return { base: `${local}@${domain}` };
  // The token's case matters: take it from the address as written.
  const token = address.split('@')[0]!.slice(plus + 1);
  return { base: `${local.slice(0, plus)}@${domain}`, ...(TOKEN.test(token) ? { token } : {}) };
}

/** The conversation's thread, started (its token stored and pointing back to it) on its first mail. */
export async function mailThread(deps: Deps, meta: ConversationMetaItem): Promise<MailThreadItem> {
  const known = await readMailThread(deps, meta.conversationId);
  if (known) return known;
  const expires = await conversationExpiry(deps, meta.workspaceId, deps.now());
  const token = randomBase62(TOKEN_CHARS);
  // The pointer first: a token in the thread always finds its conversation.
  await putTokenPointer(deps, token, meta.conversationId, meta.agentId, expires);
  await putMailThread(deps, meta.conversationId, token, expires);
  return (await readMailThread(deps, meta.conversationId))!;
}

/** The address a conversation's mail goes to: an e-mail conversation's customer, or the widget visitor's left address while they are away. */
export const customerAddress = (meta: ConversationMetaItem): string | undefined =>
  meta.channel === 'email' ? meta.email?.address : meta.emailReplies ? meta.visitorEmail : undefined;

/** Keeps a Message-ID of the conversation's thread (`outbound`: one we sent), so that answers to it find the conversation. */
export async function noteThreadMessage(deps: Deps, meta: ConversationMetaItem, messageId: string, outbound: boolean): Promise<void> {
  const thread = await mailThread(deps, meta);
  await putThreadMessage(
    deps,
    meta.agentId,
    messageHash(messageId),
    messageId,
    meta.conversationId,
    outbound,
    thread.references,
    await conversationExpiry(deps, meta.workspaceId, deps.now()),
  );
}

/**
 * Sends a mail of the conversation to its customer from the agent's address, in the thread: Reply-To its reply
 * address, In-Reply-To the thread's latest Message-ID, References the thread's; the Message-ID the transport answers
 * is kept for the answers to it.
 */
export async function mailInThread(
  deps: Deps,
  meta: ConversationMetaItem,
  agent: { email: string; name: string },
  mail: Pick<MailMessage, 'to' | 'subject' | 'text' | 'html' | 'autoSubmitted'>,
): Promise<string> {
  const thread = await mailThread(deps, meta);
  const latest = thread.references.at(-1);
  const { messageId } = await sendMail(deps, {
    ...mail,
    from: `${agent.name.replace(/["<>\r\n]/g, '')} <${agent.email}>`,
    replyTo: replyAddress(agent.email, thread.token),
    ...(latest ? { inReplyTo: latest, references: thread.references } : {}),
  });
  await noteThreadMessage(deps, meta, messageId, true);
  return messageId;
}

/**
 * The conversation an inbound mail to `agentId` belongs to: by its reply token first, then by the Message-IDs it
 * answers (In-Reply-To, References); `outboundOf` tells whether its own Message-ID is one we sent (our own mail back).
 */
export async function threadOfMail(
  deps: Deps,
  agentId: string,
  mail: { token?: string | undefined; answers: string[] },
): Promise<{ conversationId: string; by: 'address' | 'headers' } | undefined> {
  if (mail.token) {
    const pointer = await readTokenPointer(deps, mail.token);
    if (pointer && pointer.agentId === agentId) return { conversationId: pointer.ref, by: 'address' };
  }
  for (const answered of mail.answers.slice(-THREAD_LOOKUPS).reverse()) {
    const known = await readThreadMessage(deps, agentId, messageHash(answered));
    if (known) return { conversationId: known.ref, by: 'headers' };
  }
  return undefined;
}

/** How many of a mail's References are looked up (the latest ones). */
const THREAD_LOOKUPS = 10;

/** Whether a Message-ID is one the platform sent for this agent (a mail of ours coming back). */
export const isOurMessage = async (deps: Deps, agentId: string, messageId: string): Promise<boolean> =>
  (await readThreadMessage(deps, agentId, messageHash(messageId)))?.outbound === true;
