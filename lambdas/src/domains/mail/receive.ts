import { createHash } from 'node:crypto';
import { findAgentByEmail, type StoredAgent } from '../agents/agents';
import { splitReplyAddress } from '../conversations/mail-thread';
import type { Deps } from '../../infra/deps';
import type { BlobStore } from '../../infra/blob/blob-store';
import { logger } from '../../infra/logger';
import { claimDelivery, putInboundMail, readInboundMail, type InboundMailItem } from './repository';

/** What one mail may be (the SMTP SIZE and the 552 past it; SES takes up to 40 MB) and how many recipients one delivery names (452 past it). */
export const INBOUND_LIMITS = { bytes: 25 * 1024 * 1024, recipients: 10, attachments: 10, attachmentBytes: 10 * 1024 * 1024 } as const;

export const mailBlobs = (deps: Deps): BlobStore => {
  if (!deps.inboundMail) throw new Error('This function keeps no inbound mail (MAIL_BLOB_URI)');
  return deps.inboundMail.blobs;
};

/** The agent a recipient address belongs to (its own address, or one of its conversations' reply addresses); undefined: 550. */
export async function recipientAgent(deps: Deps, address: string): Promise<StoredAgent | undefined> {
  const { base } = splitReplyAddress(address);
  if (!base.endsWith(`@${deps.config.agentMailDomain.toLowerCase()}`)) return undefined;
  return findAgentByEmail(deps, base);
}

/**
 * Keeps a mail durably before it is accepted: its raw MIME in the blob store, then its record (`received`); only then
 * may the sender hear 250, and the queue message that gets it worked follows (a crash or a failed send between leaves the
 * record for the mail sweeper). `deliveryId`: SES's message id, the same for every delivery of one mail (one record however often
 * it comes); undefined locally (the hash of the mail's bytes and its recipient: a sender's retry is the same mail). `queued: false`: the caller works it at once (the SES notification's own
 * message is retried until it is). The mail's id, and its record when an earlier delivery stored it.
 */
export async function acceptMail(
  deps: Deps,
  mail: {
    raw: Uint8Array;
    envelopeFrom: string;
    recipient: string;
    agent: StoredAgent;
    remote?: { ip: string; helo: string };
    deliveryId?: string;
    rawKey?: string;
    verdicts?: InboundMailItem['verdicts'];
    queued?: boolean;
  },
): Promise<{ mailId: string; earlier?: InboundMailItem }> {
  // Locally a mail's identity is its bytes and recipient: a sender that never heard 250 (a crash after the record,
  // before the answer) sends the same bytes again, and that names the mail already kept.
  const delivery = mail.deliveryId ? `ses#${mail.deliveryId}` : `smtp#${createHash('sha256').update(mail.raw).digest('hex')}#${mail.recipient.toLowerCase()}`;
  const mailId = uuidOf(mail.deliveryId ?? delivery);
  // A crash may have come between the claim and the record: then the record is stored now.
  const earlier = await claimDelivery(deps, delivery, mailId);
  const kept = earlier ? await readInboundMail(deps, earlier) : undefined;
  if (kept) {
    // Its queue message may be what the crash lost: sent again while it is unworked (working it twice does nothing more).
    if (kept.state === 'received' && mail.queued !== false) await queueMail(deps, kept.mailId);
    return { mailId: kept.mailId, earlier: kept };
  }
  const rawKey = mail.rawKey ?? `${mail.agent.workspaceId}/${mailId}/raw.eml`;
  if (!mail.rawKey) await mailBlobs(deps).put(rawKey, mail.raw, 'message/rfc822');
  await putInboundMail(deps, {
    mailId,
    agentId: mail.agent.id,
    workspaceId: mail.agent.workspaceId,
    envelopeFrom: mail.envelopeFrom.toLowerCase(),
    recipient: mail.recipient,
    ...(mail.remote ? { remote: mail.remote } : {}),
    ...(mail.verdicts ? { verdicts: mail.verdicts } : {}),
    rawKey,
    bytes: mail.raw.byteLength,
    receivedAt: deps.now().toISOString(),
    state: 'received',
  });
  // Stored is accepted: a message that fails to go now is sent by the mail sweeper (mail-sweeper.ts), and the sender
  // must not retry a mail we keep (a retry would be a second mail).
  if (mail.queued !== false) await queueMail(deps, mailId);
  return { mailId };
}

const queueMail = (deps: Deps, mailId: string) =>
  deps.queue.send('mail', { mailId }).catch((error: unknown) => logger.warn('inbound mail left for the mail sweeper', { mailId, error }));

/** A stable UUID of a delivery's id (SES's message id names the mail the same way on every delivery). */
function uuidOf(id: string): string {
  const hex = createHash('sha256').update(id).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}
