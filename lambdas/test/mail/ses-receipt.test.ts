import type { SQSEvent } from 'aws-lambda';
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { findAgentById } from '../../src/domains/agents/agents';
import { UNWORKED_AFTER_MS } from '../../src/domains/mail/mail-sweeper';
import { readInboundMail } from '../../src/domains/mail/repository';
import { acceptSesReceipt, readSesReceipt } from '../../src/domains/mail/ses-receipt';
import { resolveModel } from '../../src/infra/model';
import { createMailConsumer } from '../../src/surfaces/mail/consumer';
import { usePlatform } from '../support/platform';

/** One SQS record of the `mail` queue, as the InboundMail function is given it. */
const sqsEvent = (body: string, copies = 1): SQSEvent => ({
  Records: Array.from(
    { length: copies },
    () =>
      ({
        messageId: randomUUID(),
        receiptHandle: 'r',
        body,
        attributes: {},
        messageAttributes: {},
        md5OfBody: '',
        eventSource: 'aws:sqs',
        eventSourceARN: 'arn:aws:sqs:local:0:mail',
        awsRegion: 'local',
      }) as unknown as SQSEvent['Records'][number],
  ),
});

/** SES receiving's notification of a mail its S3 action stored under `objectKey`, wrapped by SNS. */
type Verdicts = Partial<Record<'dmarcVerdict' | 'spamVerdict' | 'virusVerdict', string>>;

function sesNotification(options: { messageId: string; from: string; to: string; objectKey: string; verdicts?: Verdicts }): string {
  const pass = { status: 'PASS' };
  const message = {
    notificationType: 'Received',
    mail: { timestamp: new Date().toISOString(), source: options.from, messageId: options.messageId, destination: [options.to], headersTruncated: false },
    receipt: {
      timestamp: new Date().toISOString(),
      processingTimeMillis: 400,
      recipients: [options.to],
      spamVerdict: { status: options.verdicts?.spamVerdict ?? 'PASS' },
      virusVerdict: { status: options.verdicts?.virusVerdict ?? 'PASS' },
      spfVerdict: pass,
      dkimVerdict: pass,
      dmarcVerdict: { status: options.verdicts?.dmarcVerdict ?? 'PASS' },
      action: { type: 'S3', topicArn: 'arn:aws:sns:local:0:mail', bucketName: 'stack-bucket', objectKeyPrefix: 'inbound', objectKey: options.objectKey },
    },
  };
  return JSON.stringify({
    Type: 'Notification',
    MessageId: randomUUID(),
    TopicArn: 'arn:aws:sns:local:0:mail',
    Message: JSON.stringify(message),
    Timestamp: new Date().toISOString(),
  });
}

/** A mail with a text part and one attachment (`invoice.exe`). */
const rawMail = (from: string, to: string, subject: string, text: string) =>
  new TextEncoder().encode(
    [
      `From: ${from}`,
      `To: ${to}`,
      `Subject: ${subject}`,
      `Message-ID: <${randomUUID()}@customer.example>`,
      `Date: ${new Date().toUTCString()}`,
      'MIME-Version: 1.0',
      'Content-Type: multipart/mixed; boundary="b1"',
      '',
      '--b1',
      'Content-Type: text/plain; charset=utf-8',
      '',
      text,
      '--b1',
      'Content-Type: application/octet-stream',
      'Content-Disposition: attachment; filename="invoice.exe"',
      'Content-Transfer-Encoding: base64',
      '',
      Buffer.from('MZ not really a program').toString('base64'),
      '--b1--',
      '',
    ].join('\r\n'),
  );

describe('SES receiving through the mail consumer (the InboundMail function)', () => {
  const context = usePlatform();
  const consumer = () => createMailConsumer(context.platform.deps, resolveModel(context.platform.deps.config.model));
  const transcriptOf = async (address: string) => {
    const list = await context.api<{ conversations: { id: string; email: { address: string } | null }[] }>('conversations/list', {
      query: { agent_id: context.agentId },
    });
    const conversations = list.body.data.conversations.filter((item) => item.email?.address === address);
    const transcripts = await Promise.all(
      conversations.map((item) => context.api<{ messages: { role: string }[] }>('conversations/get', { query: { conversation_id: item.id } })),
    );
    return transcripts.flatMap((transcript) => transcript.body.data.messages.map((message) => message.role));
  };
  const mailbox = async () => ((await (await fetch(`${context.platform.url}/dev/mail.json`)).json()) as { mail: { to: string }[] }).mail;

  const stored = async (from: string, subject: string, verdicts?: Verdicts) => {
    const agent = (await findAgentById(context.platform.deps, context.agentId))!;
    const objectKey = `inbound/${randomUUID()}`;
    await context.platform.deps.inboundMail!.blobs.put(objectKey, rawMail(from, agent.email, subject, 'Can I change my delivery address?'), 'message/rfc822');
    return sesNotification({ messageId: randomUUID(), from, to: agent.email, objectKey, ...(verdicts ? { verdicts } : {}) });
  };

  it('makes one conversation entry and one answer of the same notification delivered twice', async () => {
    const notification = await stored('dee@customer.example', 'Delivery address');
    expect(await consumer()(sqsEvent(notification))).toEqual({ batchItemFailures: [] });
    expect(await consumer()(sqsEvent(notification))).toEqual({ batchItemFailures: [] });
    expect(await transcriptOf('dee@customer.example')).toEqual(['user', 'assistant']);
    expect((await mailbox()).filter((mail) => mail.to === 'dee@customer.example')).toHaveLength(1);
  });

  it('answers once the same notification delivered twice at once (one batch, worked together)', async () => {
    const notification = await stored('fay@customer.example', 'Opening hours');
    expect(await consumer()(sqsEvent(notification, 2))).toEqual({ batchItemFailures: [] });
    expect(await transcriptOf('fay@customer.example')).toEqual(['user', 'assistant']);
    expect((await mailbox()).filter((mail) => mail.to === 'fay@customer.example')).toHaveLength(1);
  });

  it('records a mail failing DMARC as unverified', async () => {
    const notification = await stored('eve@customer.example', 'Refund', { dmarcVerdict: 'FAIL' });
    expect(await consumer()(sqsEvent(notification))).toEqual({ batchItemFailures: [] });
    // Accepting the same receipt again names the mail already stored.
    const [accepted] = await acceptSesReceipt(context.platform.deps, readSesReceipt(JSON.parse(notification))!);
    // Stored just now by the first delivery: this one leaves it to that; one past the sweeper's wait works it.
    expect(accepted!.work).toBe(false);
    const later = { ...context.platform.deps, now: () => new Date(Date.now() + UNWORKED_AFTER_MS) };
    expect(await acceptSesReceipt(later, readSesReceipt(JSON.parse(notification))!)).toEqual([{ mailId: accepted!.mailId, work: true }]);
    const record = (await readInboundMail(context.platform.deps, accepted!.mailId))!;
    expect(record).toMatchObject({ envelopeFrom: 'eve@customer.example', verdicts: { spf: 'pass', dkim: 'pass', dmarc: 'fail' } });
    expect(record.state).not.toBe('received');
  });

  it.each([
    ['spamVerdict', 'spam'],
    ['virusVerdict', 'virus'],
  ] as const)('keeps a mail with SES %s FAIL apart: stored, marked why, never in a conversation, never answered', async (field, reason) => {
    const from = `${reason}-sender@customer.example`;
    const notification = await stored(from, 'You have won', { [field]: 'FAIL' });
    expect(await consumer()(sqsEvent(notification))).toEqual({ batchItemFailures: [] });
    const [accepted] = await acceptSesReceipt(context.platform.deps, readSesReceipt(JSON.parse(notification))!);
    const record = (await readInboundMail(context.platform.deps, accepted!.mailId))!;
    expect(record).toMatchObject({ state: 'ignored', reason, from, subject: 'You have won', verdicts: { [reason]: 'fail' } });
    expect(record.attachments).toEqual([expect.objectContaining({ filename: 'invoice.exe' })]);
    // A virus's attachment is listed, never kept for a teammate to download; spam's is kept as any mail's.
    expect(record.attachments![0]!.key === undefined).toBe(reason === 'virus');
    expect(await transcriptOf(from)).toEqual([]);
    expect((await mailbox()).filter((mail) => mail.to === from)).toEqual([]);
  });

  it('refuses a malformed notification without a retry', async () => {
    for (const body of [
      'not json',
      JSON.stringify({ Type: 'Notification', Message: '{"notificationType":"Received"}' }),
      JSON.stringify({ Type: 'Notification', Message: '{' }),
      JSON.stringify({ mailId: 'x' }),
    ]) {
      expect(await consumer()(sqsEvent(body))).toEqual({ batchItemFailures: [] });
    }
  });
});
