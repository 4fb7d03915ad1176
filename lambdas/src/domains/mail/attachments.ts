import { DomainError } from '@service/shared';
import type { Deps } from '../../infra/deps';
import type { ParsedMail } from './parse';
import { INBOUND_LIMITS, mailBlobs } from './receive';
import { readInboundMail, type InboundMailItem, type MailAttachment } from './repository';

/**
 * An inbound mail's attachments: kept as blobs beside its raw MIME (`<workspaceId>/<mailId>/attachments/<n>`, so
 * erasing the mail's prefix erases them) within INBOUND_LIMITS, listed past them with why they were not kept, and
 * handed to a teammate's download as bytes, never opened, rendered or run here.
 */

/** How many attachments of one mail are listed at all (a mail of a thousand parts lists the first ones). */
const LISTED = 100;

const attachmentKey = (mail: Pick<InboundMailItem, 'workspaceId' | 'mailId'>, index: number) => `${mail.workspaceId}/${mail.mailId}/attachments/${index}`;

/**
 * Keeps the attachments within the caps (stored again with the same keys when a crash has the mail worked twice); none
 * of a mail SES found a virus in (`virusFree` false): those are listed, not kept.
 */
export function keepAttachments(deps: Deps, mail: InboundMailItem, parsed: ParsedMail, virusFree = true): Promise<MailAttachment[]> {
  return Promise.all(
    parsed.attachments.slice(0, LISTED).map(async (attachment, index): Promise<MailAttachment> => {
      const listed = { filename: attachment.filename, type: attachment.type.slice(0, 100), bytes: attachment.content.byteLength };
      if (!virusFree) return { ...listed, refused: 'virus' };
      if (index >= INBOUND_LIMITS.attachments) return { ...listed, refused: 'too_many' };
      if (attachment.content.byteLength > INBOUND_LIMITS.attachmentBytes) return { ...listed, refused: 'too_large' };
      const key = attachmentKey(mail, index);
      await mailBlobs(deps).put(key, attachment.content, 'application/octet-stream');
      return { ...listed, key };
    }),
  );
}

/**
 * Types a browser shows rather than saves, or runs (HTML, SVG, XML, scripts): whatever the mail claims, a download
 * of anything but these plain types is `application/octet-stream`.
 */
const SERVED_AS_CLAIMED =
  /^(application\/(pdf|zip|gzip|msword|vnd\.ms-excel|vnd\.ms-powerpoint|vnd\.openxmlformats-officedocument\.[a-z.]+|vnd\.oasis\.opendocument\.[a-z.]+)|image\/(png|jpeg|gif|webp)|text\/(plain|csv)|audio\/(mpeg|ogg|wav)|video\/(mp4|webm))$/;

export const servedType = (claimed: string): string => {
  const type = claimed.split(';')[0]!.trim().toLowerCase();
  return SERVED_AS_CLAIMED.test(type) ? type : 'application/octet-stream';
};

/** The kept attachment `index` of a mail of conversation `conversationId` in `workspaceId`; NOT_FOUND for one it does not have or did not keep. */
export async function findAttachment(deps: Deps, scope: { workspaceId: string; conversationId: string }, mailId: string, index: number) {
  if (!deps.inboundMail)
    throw new DomainError('NOT_FOUND', 'This deployment keeps no inbound mail files (MAIL_BLOB_URI is not set for this function)', { field: 'mail_id' });
  const mail = await readInboundMail(deps, mailId);
  const attachment = mail?.workspaceId === scope.workspaceId && mail.conversationId === scope.conversationId ? mail.attachments?.[index] : undefined;
  if (!attachment?.key) {
    throw new DomainError(
      'NOT_FOUND',
      attachment
        ? `Attachment ${index} was not kept (${attachment.refused === 'too_many' ? 'past the count cap of one mail' : 'over the size cap'})`
        : `No attachment ${index} in mail ${mailId} of this conversation`,
      { field: 'index' },
    );
  }
  return { index, filename: attachment.filename, type: attachment.type, bytes: attachment.bytes, refused: null, key: attachment.key };
}

/** The attachment's file as a download serves it: its name, a type no browser renders (servedType) and its bytes. */
export async function attachmentFile(
  deps: Deps,
  scope: { workspaceId: string; conversationId: string },
  mailId: string,
  index: number,
): Promise<{ filename: string; type: string; content: Uint8Array }> {
  const { key, filename, type } = await findAttachment(deps, scope, mailId, index);
  const content = await mailBlobs(deps).get(key);
  if (!content) throw new DomainError('NOT_FOUND', `Attachment ${index} of mail ${mailId} is no longer kept`, { field: 'index' });
  return { filename, type: servedType(type), content };
}
