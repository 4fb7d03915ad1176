import MailComposer from 'nodemailer/lib/mail-composer';
import type { MailMessage } from './mail';

/** A mail as MIME (nodemailer's composer: encodings, folding, multipart/alternative), with the Message-ID it carries. */
export async function composeMail(message: MailMessage, defaultFrom: string, messageIdDomain: string): Promise<{ raw: Buffer; messageId: string }> {
  const composer = new MailComposer({
    from: message.from ?? defaultFrom,
    to: message.to,
    subject: message.subject,
    text: message.text,
    ...(message.html ? { html: message.html } : {}),
    ...(message.replyTo ? { replyTo: message.replyTo } : {}),
    ...(message.inReplyTo ? { inReplyTo: message.inReplyTo } : {}),
    ...(message.references?.length ? { references: message.references } : {}),
    headers: message.autoSubmitted ? { 'Auto-Submitted': message.autoSubmitted } : {},
    messageId: `<${crypto.randomUUID()}@${messageIdDomain}>`,
  });
  const node = composer.compile();
  const raw = await node.build();
  return { raw, messageId: node.messageId() };
}
