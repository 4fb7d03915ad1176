import type { DataOf } from '@service/shared';
import type { Deps } from '../../infra/deps';
import { deleteMailRecord, queryMailsOfConversation, queryMailsOfCustomer } from './customer-mail-repository';
import { mailBlobs } from './receive';
import type { InboundMailItem } from './repository';

/**
 * A customer's inbound mails as visitors/ exports and erases them (a VisitorDataOwner, domains/visitors/owners.ts):
 * the records of their conversations' mails (held ones included) and, when the customer is named by address, every
 * mail of that address; with each its files in the blob store: `<workspace>/<mail>/` (the raw message, the
 * attachments) and, for a mail SES stored, the raw message at the key its S3 action chose. Found by key, never a scan.
 */
export type ExportedMail = DataOf<'visitorsExport'>['mails'][number];

/** The raw message an export carries whole; a larger one is counted, not copied (the record and its text are). */
const RAW_EXPORT_BYTES = 1024 * 1024;

const folderOf = (mail: InboundMailItem) => `${mail.workspaceId}/${mail.mailId}/`;
/** The prefixes that hold a mail's files: its folder, and its raw message where SES put it outside. */
const prefixesOf = (mail: InboundMailItem) => (mail.rawKey.startsWith(folderOf(mail)) ? [folderOf(mail)] : [folderOf(mail), mail.rawKey]);

/** The ids of the conversations an address wrote in (export and erasure by `email`). */
export async function conversationsOfAddress(deps: Deps, workspaceId: string, address: string): Promise<string[]> {
  const mails = await queryMailsOfCustomer(deps, workspaceId, address);
  return [...new Set(mails.flatMap((mail) => (mail.conversationId && mail.workspaceId === workspaceId ? [mail.conversationId] : [])))];
}

async function exportedMail(deps: Deps, mail: InboundMailItem): Promise<ExportedMail> {
  const raw = mail.bytes <= RAW_EXPORT_BYTES ? await mailBlobs(deps).get(mail.rawKey) : undefined;
  return {
    mail_id: mail.mailId,
    received_at: mail.receivedAt,
    from: mail.from ?? (mail.envelopeFrom || null),
    to: mail.recipient,
    subject: mail.subject ?? null,
    state: mail.state,
    reason: mail.reason ?? null,
    conversation_id: mail.conversationId ?? null,
    verdicts: mail.verdicts ?? null,
    text: mail.text ?? null,
    attachments: (mail.attachments ?? []).map((attachment) => ({
      filename: attachment.filename,
      type: attachment.type,
      bytes: attachment.bytes,
      stored: attachment.key !== undefined,
    })),
    raw_bytes: mail.bytes,
    raw_mime: raw ? Buffer.from(raw).toString('utf8') : null,
  };
}

export const mailsOfVisitor = {
  find: async (deps: Deps, scope: { workspaceId: string; conversations: { conversationId: string }[]; email?: string }) => {
    const found = (
      await Promise.all([
        ...scope.conversations.map((conversation) => queryMailsOfConversation(deps, conversation.conversationId)),
        ...(scope.email ? [queryMailsOfCustomer(deps, scope.workspaceId, scope.email)] : []),
      ])
    ).flat();
    const mails = [...new Map(found.filter((mail) => mail.workspaceId === scope.workspaceId).map((mail) => [mail.mailId, mail])).values()];
    if (mails.length === 0) return { counts: {}, exported: { mails: [] }, erase: async () => undefined };
    const blobs = mailBlobs(deps);
    const files = (await Promise.all(mails.flatMap((mail) => prefixesOf(mail).map((prefix) => blobs.list(prefix))))).flat();
    return {
      counts: { mails: mails.length, mail_files: new Set(files).size },
      exported: { mails: await Promise.all(mails.map((mail) => exportedMail(deps, mail))) },
      // The files first, then the record that finds them: a crash in between leaves the record for the retry.
      erase: async () =>
        void (await Promise.all(
          mails.map(async (mail) => {
            for (const prefix of prefixesOf(mail)) await blobs.deletePrefix(prefix);
            await deleteMailRecord(deps, mail.mailId);
          }),
        )),
    };
  },
};
