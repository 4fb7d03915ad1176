import type { AddressInfo } from 'node:net';
import { SMTPServer, type SMTPServerDataStream } from 'smtp-server';
import type { StoredAgent } from '../../domains/agents/agents';
import { MAIL_PARSE_LIMITS } from '../../domains/mail/parse';
import { acceptMail, INBOUND_LIMITS, recipientAgent } from '../../domains/mail/receive';
import type { Deps } from '../../infra/deps';
import { logger } from '../../infra/logger';

/** An SMTP refusal with its reply code (smtp-server answers `responseCode text`). */
const refusal = (code: number, text: string) => Object.assign(new Error(text), { responseCode: code });

/** The size of a mail's header block (up to the first empty line; the whole mail when it has none). */
function headerBytes(raw: Uint8Array): number {
  const end = Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength).indexOf('\r\n\r\n');
  return end < 0 ? raw.byteLength : end;
}

/**
 * The local platform's inbound SMTP (Nodemailer's smtp-server, on loopback, SMTP_PORT): a mail to an agent's address
 * or one of its conversations' reply addresses is answered 250 only once its raw MIME and its record are stored
 * (acceptMail); unknown recipients 550, more than INBOUND_LIMITS.recipients 452, a mail past 25 MB 552, a store that
 * failed 451 (the sender retries), a header block past MAIL_PARSE_LIMITS.headerBytes 552 (postal-mime would not read it). No AUTH, no STARTTLS: it listens on loopback only.
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
      let bytes = 0;
      // Past the cap the rest is read and dropped (the 552 comes at the end of DATA), never held in memory.
      stream.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
        if (bytes <= INBOUND_LIMITS.bytes) chunks.push(chunk);
      });
      stream.on('end', () => {
        const recipients = agents.get(session.id) ?? new Map<string, StoredAgent>();
        agents.delete(session.id);
        if (stream.sizeExceeded || bytes > INBOUND_LIMITS.bytes) return callback(refusal(552, `5.3.4 Message too big (at most ${INBOUND_LIMITS.bytes} bytes)`));
        const raw = new Uint8Array(Buffer.concat(chunks));
        if (headerBytes(raw) > MAIL_PARSE_LIMITS.headerBytes)
          return callback(refusal(552, `5.3.4 Message header too big (at most ${MAIL_PARSE_LIMITS.headerBytes} bytes)`));
        const envelopeFrom = session.envelope.mailFrom ? session.envelope.mailFrom.address : '';
        Promise.all(
          [...recipients].map(([recipient, agent]) =>
            acceptMail(deps, { raw, envelopeFrom, recipient, agent, remote: { ip: session.remoteAddress, helo: session.hostNameAppearsAs || 'unknown' } }),
          ),
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
