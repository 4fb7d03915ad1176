import { createTransport } from 'nodemailer';
import { describe, expect, it } from 'vitest';
import { findAgentById } from '../../src/domains/agents/agents';
import { usePlatform } from '../support/platform';
import { mailQueueWatch, noDns } from './inbound';

// Mail the agents never answer (RFC 3834, issue 38): a loop with another machine stops at the hourly limit of
// automatic answers per sender, two agents of the platform never answer each other (our own mail, Auto-Submitted),
// and a bounce is not answered but recorded as a note on the conversation whose mail it returns.

const LIMIT = 3;

const { observer, allWorked } = mailQueueWatch();

interface Box {
  to: string;
  from: string | null;
  subject: string;
  text: string;
  headers: Record<string, string>;
}

describe('mail that is never answered', () => {
  const context = usePlatform({ mailResolver: noDns, observer, env: { MAIL_AUTO_REPLIES_PER_HOUR: String(LIMIT) } });
  const smtp = () => createTransport({ host: '127.0.0.1', port: context.platform.smtpPort, secure: false, ignoreTLS: true });
  const mailsTo = async (address: string) =>
    ((await (await fetch(`${context.platform.url}/dev/mail.json`)).json()) as { mail: Box[] }).mail.filter((mail) => mail.to === address);
  const agentEmail = async (index: number) => (await findAgentById(context.platform.deps, context.platform.demo.agentIds[index]!))!.email;
  const transcriptOf = async (address: string) => {
    const list = await context.api<{ conversations: { id: string; email: { address: string } | null }[] }>('conversations/list', {
      query: { agent_id: context.agentId },
    });
    const conversation = list.body.data.conversations.find((item) => item.email?.address === address)!;
    return (await context.api<{ messages: { role: string; text: string }[] }>('conversations/get', { query: { conversation_id: conversation.id } })).body.data
      .messages;
  };

  it('stops a loop with an autoresponder that marks nothing at the hourly limit of answers to that sender', async () => {
    const bot = 'robot@autoresponder.example';
    const agent = await agentEmail(0);
    // The robot answers every mail it gets, in the thread, with no Auto-Submitted, Precedence or List header.
    let latest: Box | undefined;
    for (let round = 0; round < LIMIT + 2; round++) {
      const sent = await smtp().sendMail({
        from: bot,
        to: latest?.headers['reply-to'] ?? agent,
        subject: latest ? `Re: ${latest.subject}` : 'Hello',
        text: `Thank you for your message (${round}). Could you tell me more?`,
        ...(latest ? { inReplyTo: latest.headers['message-id'] } : {}),
      });
      expect(sent.response).toMatch(/^250/);
      await allWorked();
      latest = (await mailsTo(bot))[0] ?? latest;
    }
    const answers = await mailsTo(bot);
    expect(answers).toHaveLength(LIMIT);
    for (const answer of answers) expect(answer.headers['auto-submitted']).toBe('auto-replied');
    // Every mail of the robot is in the conversation; the agent answered the first LIMIT.
    const roles = (await transcriptOf(bot)).map((message) => message.role);
    expect(roles.filter((role) => role === 'user')).toHaveLength(LIMIT + 2);
    expect(roles.filter((role) => role === 'assistant')).toHaveLength(LIMIT);
  }, 60_000);

  it('never lets two agents of the platform answer each other, nor answers our own mail coming back', async () => {
    const [first, second] = [await agentEmail(0), await agentEmail(1)];
    const customer = 'lee@customer.example';
    await smtp().sendMail({ from: customer, to: first, subject: 'Prices', text: 'How much is the basic plan?' });
    await allWorked();
    const [answer] = await mailsTo(customer);
    expect(answer!.headers['auto-submitted']).toBe('auto-replied');
    // The first agent's answer reaches the second (a customer's forward rule): From the first agent, as it was sent.
    const relay = (to: string, from: string, headers: Record<string, string>) =>
      smtp().sendMail({ from, to, subject: answer!.subject, text: answer!.text, messageId: answer!.headers['message-id'], headers });
    await relay(second, first, { 'Auto-Submitted': 'auto-replied' });
    // The same without its Auto-Submitted header (a forwarder dropped it): from our own mail domain, still ours.
    await relay(second, first, {});
    // Our own mail back at the first agent from the customer's forwarder, headers stripped: its Message-ID is ours.
    await relay(first, 'forwarder@customer.example', {});
    await allWorked();
    expect(await mailsTo(first)).toEqual([]);
    expect(await mailsTo(second)).toEqual([]);
    expect(await mailsTo('forwarder@customer.example')).toEqual([]);
    expect(await mailsTo(customer)).toHaveLength(1);
  }, 20_000);

  it('records a bounce against the conversation whose mail it returns, and answers no one', async () => {
    const agent = await agentEmail(0);
    const customer = 'gone@customer.example';
    await smtp().sendMail({ from: customer, to: agent, subject: 'Refund', text: 'I want my money back.' });
    await allWorked();
    const [answer] = await mailsTo(customer);
    const boundary = 'dsn-boundary-1';
    const dsn = [
      'From: Mail Delivery System <MAILER-DAEMON@mx.customer.example>',
      `To: ${agent}`,
      'Subject: Undelivered Mail Returned to Sender',
      'Message-ID: <dsn-1@mx.customer.example>',
      'MIME-Version: 1.0',
      `Content-Type: multipart/report; report-type=delivery-status; boundary="${boundary}"`,
      '',
      `--${boundary}`,
      'Content-Type: text/plain; charset=utf-8',
      '',
      'This is the mail system at host mx.customer.example. Your message could not be delivered.',
      `--${boundary}`,
      'Content-Type: message/delivery-status',
      '',
      'Reporting-MTA: dns; mx.customer.example',
      '',
      `Final-Recipient: rfc822; ${customer}`,
      'Action: failed',
      'Status: 5.1.1',
      'Diagnostic-Code: smtp; 550 5.1.1 <gone@customer.example>: Recipient address rejected',
      `--${boundary}`,
      'Content-Type: text/rfc822-headers',
      '',
      `From: ${answer!.from ?? agent}`,
      `To: ${customer}`,
      `Subject: ${answer!.subject}`,
      `Message-ID: ${answer!.headers['message-id']}`,
      `--${boundary}--`,
      '',
    ].join('\r\n');
    // A bounce comes from the null reverse path.
    expect((await smtp().sendMail({ envelope: { from: false as unknown as string, to: agent }, raw: dsn })).response).toMatch(/^250/);
    await allWorked();
    const notes = (await transcriptOf(customer)).filter((message) => message.role === 'note');
    expect(notes).toHaveLength(1);
    expect(notes[0]!.text).toMatch(/to gone@customer\.example could not be delivered \(5\.1\.1, smtp; 550 5\.1\.1/);
    expect((await transcriptOf(customer)).map((message) => message.role)).toEqual(['user', 'assistant', 'note']);
    expect(await mailsTo('mailer-daemon@mx.customer.example')).toEqual([]);
    expect(await mailsTo('MAILER-DAEMON@mx.customer.example')).toEqual([]);
    expect(await mailsTo(customer)).toHaveLength(1);
  }, 20_000);
});
