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
}

export const MAIL_PARSE_LIMITS = { nestingDepth: 50, headerBytes: 256 * 1024, textChars: 20_000 } as const;

const messageIds = (value: string | undefined): string[] => value?.match(/<[^<>\s]+>/g) ?? [];

export async function parseMail(raw: Uint8Array): Promise<ParsedMail> {
  const mail = await PostalMime.parse(raw, { maxNestingDepth: MAIL_PARSE_LIMITS.nestingDepth, maxHeadersSize: MAIL_PARSE_LIMITS.headerBytes, attachmentEncoding: 'arraybuffer' });
  const headers = new Map<string, string>();
  for (const header of mail.headers) if (!headers.has(header.key)) headers.set(header.key, header.value);
  const fullText = (mail.text ?? (mail.html ? convert(mail.html, { wordwrap: false, selectors: [{ selector: 'img', format: 'skip' }] }) : '')).slice(0, MAIL_PARSE_LIMITS.textChars);
  const newText = new EmailReplyParser().read(fullText).getVisibleText().trim() || fullText.trim();
  const from = mail.from && 'address' in mail.from && mail.from.address ? { address: mail.from.address.toLowerCase(), name: mail.from.name } : undefined;
  return {
    from,
    subject: (mail.subject ?? '').replace(/[\r\n]+/g, ' ').slice(0, 300),
    messageId: messageIds(mail.messageId)[0],
    answers: [...messageIds(mail.references), ...messageIds(mail.inReplyTo)],
    headers,
    fullText,
    newText,
    safeHtml: mail.html ? sanitizeHtml(mail.html, { allowedTags: sanitizeHtml.defaults.allowedTags.filter((tag) => tag !== 'img'), allowedSchemes: ['http', 'https', 'mailto'] }) : undefined,
    contentType: (headers.get('content-type') ?? 'text/plain').split(';')[0]!.trim().toLowerCase(),
    attachments: mail.attachments.map((attachment) => ({
      filename: (attachment.filename ?? 'attachment').replace(/[\r\n"]/g, '').slice(0, 200),
      type: attachment.mimeType,
      content: attachment.content instanceof ArrayBuffer ? new Uint8Array(attachment.content) : typeof attachment.content === 'string' ? new TextEncoder().encode(attachment.content) : attachment.content,
    })),
  };
}
