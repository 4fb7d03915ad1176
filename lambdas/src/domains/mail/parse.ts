import PostalMime from 'postal-mime';
import EmailReplyParser from 'email-reply-parser';
import { convert } from 'html-to-text';
import sanitizeHtml from 'sanitize-html';

/**
 * An inbound mail read by maintained parsers, never by hand: MIME by postal-mime (bounded nesting and header size),
 * the new text without quoted history and signature by email-reply-parser, an HTML-only body turned into text by
 * html-to-text, and the HTML the inbox shows cleaned by sanitize-html (no script, style, form, remote image or handler).
 */
export interface ParsedMail {
  from: { address: string; name: string } | undefined;
  subject: string;
  messageId: string | undefined;
  /** The Message-IDs it answers, oldest first (References, then In-Reply-To). */
  answers: string[];
  /** Every header by lower-case name (the first of each): the rules of never-answer.ts read them. */
  headers: Map<string, string>;
  /** The whole text, and the part the customer wrote now. */
  fullText: string;
  newText: string;
  safeHtml: string | undefined;
  /** Content-Type of the top part (multipart/report: a delivery status notification). */
  contentType: string;
  attachments: { filename: string; type: string; content: Uint8Array }[];
  /** A delivery status report (multipart/report): the Message-IDs of the mail it returns and what its report says. */
  bounce: BounceReport | undefined;
}

export interface BounceReport {
  /** The Message-IDs in the returned headers (text/rfc822-headers, message/rfc822): the mail that bounced. */
  bounced: string[];
  /** Final-Recipient, Action, Status and Diagnostic-Code of the report, one line each, bounded. */
  recipient: string | undefined;
  status: string | undefined;
  diagnostic: string | undefined;
}

/**
 * What parsing reads of a mail at most: MIME nesting, header bytes, the text kept, and the HTML handed to html-to-text
 * and sanitize-html (an HTML bomb is cut, not walked: both are linear in it, and 25 MB of tags would hold a worker).
 */
export const MAIL_PARSE_LIMITS = { nestingDepth: 50, headerBytes: 256 * 1024, textChars: 20_000, htmlChars: 500_000 } as const;

const messageIds = (value: string | undefined): string[] => value?.match(/<[^<>\s]+>/g) ?? [];

/** Control characters (NUL and the like; tab and newlines kept) never reach the store, the model or the inbox. */
// eslint-disable-next-line no-control-regex
const clean = (text: string): string => text.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g, '');

const REPORT_PARTS = new Set(['message/delivery-status', 'message/global-delivery-status']);
const RETURNED_PARTS = new Set(['text/rfc822-headers', 'message/rfc822-headers', 'message/rfc822', 'message/global', 'message/global-headers']);

/** A field of a delivery status (`Status: 5.1.1`), unfolded, one line of at most 300 characters. */
const reportField = (report: string, name: string): string | undefined =>
  new RegExp(`^${name}:[ \\t]*(.*(?:\\r?\\n[ \\t].*)*)`, 'im').exec(report)?.[1]?.replace(/\s+/g, ' ').trim().slice(0, 300) || undefined;

/** What a delivery status report (RFC 3464) says, read from the parts postal-mime keeps as attachments; undefined for any other mail. */
function bounceReport(contentType: string, attachments: ParsedMail['attachments']): BounceReport | undefined {
  if (contentType !== 'multipart/report') return undefined;
  const text = (types: Set<string>) =>
    attachments
      .filter((part) => types.has(part.type))
      .map((part) => new TextDecoder().decode(part.content.subarray(0, MAIL_PARSE_LIMITS.headerBytes)))
      .join('\n');
  const report = text(REPORT_PARTS);
  const returned = text(RETURNED_PARTS);
  const headerEnd = returned.search(/\r?\n\r?\n/);
  return {
    bounced: messageIds(reportField(headerEnd < 0 ? returned : returned.slice(0, headerEnd), 'Message-ID')).slice(0, 1),
    recipient: reportField(report, 'Final-Recipient')?.replace(/^rfc822;\s*/i, ''),
    status: reportField(report, 'Status'),
    diagnostic: reportField(report, 'Diagnostic-Code'),
  };
}

export async function parseMail(raw: Uint8Array): Promise<ParsedMail> {
  const mail = await PostalMime.parse(raw, {
    maxNestingDepth: MAIL_PARSE_LIMITS.nestingDepth,
    maxHeadersSize: MAIL_PARSE_LIMITS.headerBytes,
    attachmentEncoding: 'arraybuffer',
  });
  const headers = new Map<string, string>();
  for (const header of mail.headers) if (!headers.has(header.key)) headers.set(header.key, header.value);
  const html = mail.html === undefined ? undefined : clean(mail.html.slice(0, MAIL_PARSE_LIMITS.htmlChars));
  const fullText = clean(
    (
      mail.text?.slice(0, MAIL_PARSE_LIMITS.textChars * 2) ?? (html ? convert(html, { wordwrap: false, selectors: [{ selector: 'img', format: 'skip' }] }) : '')
    ).slice(0, MAIL_PARSE_LIMITS.textChars),
  );
  const newText = new EmailReplyParser().read(fullText).getVisibleText().trim() || fullText.trim();
  const from =
    mail.from && 'address' in mail.from && mail.from.address ? { address: clean(mail.from.address).toLowerCase(), name: clean(mail.from.name) } : undefined;
  const contentType = (headers.get('content-type') ?? 'text/plain').split(';')[0]!.trim().toLowerCase();
  const attachments = mail.attachments.map((attachment) => ({
    filename: clean(attachment.filename ?? 'attachment')
      .replace(/[\r\n"]/g, '')
      .slice(0, 200),
    type: attachment.mimeType,
    content:
      attachment.content instanceof ArrayBuffer
        ? new Uint8Array(attachment.content)
        : typeof attachment.content === 'string'
          ? new TextEncoder().encode(attachment.content)
          : attachment.content,
  }));
  return {
    from,
    subject: clean(mail.subject ?? '')
      .replace(/[\r\n]+/g, ' ')
      .slice(0, 300),
    messageId: messageIds(mail.messageId)[0],
    answers: [...messageIds(mail.references), ...messageIds(mail.inReplyTo)],
    headers,
    fullText,
    newText,
    safeHtml: html
      ? sanitizeHtml(html, { allowedTags: sanitizeHtml.defaults.allowedTags.filter((tag) => tag !== 'img'), allowedSchemes: ['http', 'https', 'mailto'] })
      : undefined,
    contentType,
    attachments,
    bounce: bounceReport(contentType, attachments),
  };
}
