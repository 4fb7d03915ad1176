import { SendEmailCommand, SESv2Client } from '@aws-sdk/client-sesv2';
import { composeMail } from './compose';
import type { MailMessage, MailTransport } from './mail';

/** The Message-ID header SES gives a mail it sends (it replaces the mail's own): `<SES message id>@<region>.amazonses.com`. */
export const sesMessageId = (sesId: string, region: string): string => `<${sesId}@${region === 'us-east-1' ? 'email' : region}.amazonses.com>`;

/**
 * Amazon SES (v2 API), raw MIME so that the threading headers go as composed: the platform's own mail from
 * `fromAddress` (a verified identity, config MAIL_FROM), an agent's mail from its own address (its domain must be a
 * verified identity too). Answers the Message-ID SES gave the mail, which threads follow.
 */
export function sesTransport(options: { region: string; fromAddress: string; domain: string }): MailTransport {
  const client = new SESv2Client({ region: options.region });
  return {
    async send(message: MailMessage) {
      const { raw } = await composeMail(message, options.fromAddress, options.domain);
      const sent = await client.send(new SendEmailCommand({ Destination: { ToAddresses: [message.to] }, Content: { Raw: { Data: raw } } }));
      return { messageId: sesMessageId(sent.MessageId ?? '', options.region) };
    },
  };
}
