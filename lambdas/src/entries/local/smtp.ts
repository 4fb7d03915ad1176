import type { AddressInfo } from 'node:net';
import { SMTPServer, type SMTPServerDataStream } from 'smtp-server';
import type { StoredAgent } from '../../domains/agents/agents';
import { acceptMail, INBOUND_LIMITS, recipientAgent } from '../../domains/mail/receive';
import type { Deps } from '../../infra/deps';
import { logger } from '../../infra/logger';

/** An SMTP refusal with its reply code (smtp-server answers `responseCode text`). */
const refusal = (code: number, text: string) => Object.assign(new Error(text), { responseCode: code });

/**
 * The local platform's inbound SMTP (Nodemailer's smtp-server, on loopback, SMTP_PORT): a mail to an agent's address
 * or one of its conversations' reply addresses is answered 250 only once its raw MIME and its record are stored
 * (acceptMail); unknown recipients 550, more than INBOUND_LIMITS.recipients 452, a mail past 25 MB 552, a store that
 * failed 451 (the sender retries). No AUTH, no STARTTLS: it listens on loopback only.
 */
export async function startSmtp(deps: Deps, options: { port: number; host: string }): Promise<{ port: number; close(): Promise<void> }> {
  const agents = new Map<string, Map<string, StoredAgent>>();
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['AUTH', 'STARTTLS'],
    size: INBOUND_LIMITS.bytes,
    logger: false,
    banner: 'service inbound mail',
    onRcptTo(address, session, callback) {
      const accepted = agents.get(session.id) ?? new Map<string, StoredAgent>();
      agents.set(session.id, accepted);
      if (accepted.size >= INBOUND_LIMITS.recipients) return callback(refusal(452, `4.5.3 Too many recipients (at most ${INBOUND_LIMITS.recipients})`));
      recipientAgent(deps, address.address).then(
        (agent) => {
          if (!agent) return callback(refusal(550, `5.1.1 No such recipient: ${address.address}`));
          accepted.set(address.address, agent);
          callback();
        },
        (error: unknown) => {
          logger.error('smtp recipient lookup failed', { error });
          callback(refusal(451, '4.3.0 Temporary failure, try again later'));
        },
      );
    },
    onData(stream: SMTPServerDataStream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const recipients = agents.get(session.id) ?? new Map<string, StoredAgent>();
        agents.delete(session.id);
        if (stream.sizeExceeded) return callback(refusal(552, `5.3.4 Message too big (at most ${INBOUND_LIMITS.bytes} bytes)`));
        const raw = new Uint8Array(Buffer.concat(chunks));
        const envelopeFrom = session.envelope.mailFrom ? session.envelope.mailFrom.address : '';
        Promise.all(
          [...recipients].map(([recipient, agent]) => acceptMail(deps, { raw, envelopeFrom, recipient, agent, remote: { ip: session.remoteAddress, helo: session.hostNameAppearsAs || 'unknown' } })),
        ).then(
          () => callback(null),
          (error: unknown) => {
            logger.error('smtp store failed', { error });
            callback(refusal(451, '4.3.0 The mail could not be stored, try again later'));
          },
        );
      });
    },
    onClose(session) {
      agents.delete(session.id);
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.server.once('error', reject);
    server.listen(options.port, options.host, () => resolve());
  });
  return {
    port: (server.server.address() as AddressInfo).port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
