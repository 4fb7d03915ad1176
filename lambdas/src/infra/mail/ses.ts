import { SendEmailCommand, SESv2Client } from '@aws-sdk/client-sesv2';
import type { MailMessage, MailTransport } from './mail';

/**
 * Amazon SES (v2 API): the platform's own mail from `fromAddress` (a verified identity, config MAIL_FROM), an
 * agent's mail from its own address (its domain must be a verified identity too).
 */
export function sesTransport(options: { region: string; fromAddress: string }): MailTransport {
  const client = new SESv2Client({ region: options.region });
  return {
    async send(message: MailMessage) {
      await client.send(
        new SendEmailCommand({
          FromEmailAddress: message.from ?? options.fromAddress,
          Destination: { ToAddresses: [message.to] },
          Content: { Simple: { Subject: { Data: message.subject, Charset: 'UTF-8' }, Body: { Text: { Data: message.text, Charset: 'UTF-8' } } } },
        }),
      );
    },
  };
}
