import { createTransport } from 'nodemailer';
import { describe, expect, it } from 'vitest';
import { findAgentById } from '../../src/domains/agents/agents';
import { readInboundMail } from '../../src/domains/mail/repository';
import { sweepRetention } from '../../src/domains/visitors/retention-sweeper';
import { usePlatform } from '../support/platform';
import { waitFor } from '../support/wait-for';
import { localChatUrl, widgetVisitor } from '../support/widget-visitor';

// Every door sees the e-mail channel (issue 38, item 6): insights count per channel; a customer known by address is
// exported and erased with their raw mails and attachments.

/** DNS as mailauth asks it, offline: no record exists (every verdict is then `none`). */
const noDns = async (): Promise<never> => {
  throw Object.assign(new Error('no such record'), { code: 'ENOTFOUND' });
};

type ChannelMeasures = Record<string, number | null>;

/** The platform's clock, moved past a retention period by the last test. */
let clockOffsetMs = 0;

describe('the e-mail channel at every door', () => {
  const context = usePlatform({ mailResolver: noDns, env: { RATE_LIMIT_PER_MINUTE: '1000' }, now: () => new Date(Date.now() + clockOffsetMs) });
  const smtp = () => createTransport({ host: '127.0.0.1', port: context.platform.smtpPort, secure: false, ignoreTLS: true });
  const mailbox = async (): Promise<{ to: string }[]> =>
    ((await (await fetch(`${context.platform.url}/dev/mail.json`)).json()) as { mail: { to: string }[] }).mail;
  const answered = (address: string) => waitFor(async () => ((await mailbox()).some((mail) => mail.to === address) ? true : undefined));
  const today = () => context.platform.deps.now().toISOString().slice(0, 10);

  it('counts conversations per channel in insights: a mail is an email conversation, a widget chat a widget one', async () => {
    const agent = (await findAgentById(context.platform.deps, context.agentId))!;
    await smtp().sendMail({ from: 'cleo@customer.example', to: agent.email, subject: 'Delivery', text: 'Do you deliver to Lyon?' });
    await answered('cleo@customer.example');
    await widgetVisitor(localChatUrl(context.platform.url, context.agentId)).say('Do you deliver to Nantes?');
    const report = await context.api<{ total: ChannelMeasures; by_channel: { widget: ChannelMeasures; email: ChannelMeasures } }>('insights/agent/', {
      query: { agent_id: context.agentId, from: today(), to: today() },
    });
    expect(report.status, JSON.stringify(report.body)).toBe(200);
    const { total, by_channel: channels } = report.body.data;
    expect(channels.email).toMatchObject({ conversations: 1, answers: 1 });
    expect(channels.email.first_response_ms_agent).toEqual(expect.any(Number));
    expect(channels.widget).toMatchObject({ conversations: 1, answers: 1 });
    expect(channels.widget.conversations! + channels.email.conversations!).toBe(total.conversations);
  });

  it('exports and erases an e-mail customer by address: their conversation, mail records, raw mails and attachments', async () => {
    const { deps } = context.platform;
    const agent = (await findAgentById(deps, context.agentId))!;
    const blobs = deps.inboundMail!.blobs;
    const marker = 'pumpkin-4711';
    await smtp().sendMail({
      from: 'Dana Customer <Dana@Customer.example>',
      to: agent.email,
      subject: 'My order',
      text: `Order ${marker} has not arrived.`,
      attachments: [{ filename: 'receipt.txt', content: `receipt of ${marker}` }],
    });
    await answered('dana@customer.example');
    // Another customer's mail: it stays.
    await smtp().sendMail({ from: 'eli@customer.example', to: agent.email, subject: 'Hello', text: 'Just saying hello.' });
    await answered('eli@customer.example');

    const exported = await context.api<{
      visitor: { email: string | null };
      conversations: { conversation: { id: string; channel: string } }[];
      mails: {
        mail_id: string;
        subject: string;
        from: string;
        conversation_id: string;
        raw_mime: string;
        attachments: { filename: string; stored: boolean }[];
      }[];
    }>('visitors/export', { body: { email: 'dana@customer.example' } });
    expect(exported.status, JSON.stringify(exported.body)).toBe(200);
    const { mails, conversations, visitor } = exported.body.data;
    expect(visitor.email).toBe('dana@customer.example');
    expect(mails).toHaveLength(1);
    const [mail] = mails;
    expect(mail).toMatchObject({ subject: 'My order', from: 'dana@customer.example', attachments: [{ filename: 'receipt.txt', stored: true }] });
    expect(mail!.raw_mime).toContain(marker);
    expect(conversations.map((item) => item.conversation.id)).toEqual([mail!.conversation_id]);
    expect(conversations[0]!.conversation.channel).toBe('email');

    // Positive controls: the record and its files (raw message, attachment) are there, and so is the other customer's.
    const workspaceId = context.platform.demo.workspaceId;
    const files = await blobs.list(`${workspaceId}/${mail!.mail_id}/`);
    expect(files.length).toBeGreaterThanOrEqual(2);
    expect(await readInboundMail(deps, mail!.mail_id)).toBeDefined();
    const other = (await context.api<{ mails: { mail_id: string }[] }>('visitors/export', { body: { email: 'eli@customer.example' } })).body.data.mails[0]!;
    const otherFiles = await blobs.list(`${workspaceId}/${other.mail_id}/`);
    expect(otherFiles.length).toBeGreaterThan(0);

    const erased = await context.api<{ erasure: { state: string; removed: Record<string, number> } }>('visitors/erase', {
      body: { email: 'dana@customer.example' },
      headers: { 'idempotency-key': crypto.randomUUID() },
    });
    expect(erased.status, JSON.stringify(erased.body)).toBe(200);
    expect(erased.body.data.erasure).toMatchObject({ state: 'completed', removed: { conversations: 1, mails: 1, mail_files: files.length } });
    expect(await blobs.list(`${workspaceId}/${mail!.mail_id}/`)).toEqual([]);
    expect(await readInboundMail(deps, mail!.mail_id)).toBeUndefined();
    const after = await context.api<{ conversations: unknown[]; mails: unknown[] }>('visitors/export', { body: { email: 'dana@customer.example' } });
    expect(after.body.data).toMatchObject({ conversations: [], mails: [] });
    expect(JSON.stringify(after.body.data)).not.toContain(marker);
    expect(await blobs.list(`${workspaceId}/${other.mail_id}/`)).toEqual(otherFiles);
    expect(await readInboundMail(deps, other.mail_id)).toBeDefined();
  });

  it('refuses a body naming the visitor two ways, or an address that is not one', async () => {
    const both = await context.api('visitors/export', { body: { email: 'dana@customer.example', verified_user_id: 'u1' } });
    expect(both.status).toBe(400);
    expect(both.body.error?.code).toBe('VALIDATION_ERROR');
    const bad = await context.api('visitors/export', { body: { email: 'not an address' } });
    expect(bad.status).toBe(400);
    expect(bad.body.error?.field).toBe('email');
  });

  it("erases an expired e-mail conversation's mails and their files with it (the retention sweeper)", async () => {
    const { deps } = context.platform;
    const agent = (await findAgentById(deps, context.agentId))!;
    await smtp().sendMail({
      from: 'gus@customer.example',
      to: agent.email,
      subject: 'Old news',
      text: 'An old question.',
      attachments: [{ filename: 'note.txt', content: 'old note' }],
    });
    await answered('gus@customer.example');
    const [mail] = (await context.api<{ mails: { mail_id: string }[] }>('visitors/export', { body: { email: 'gus@customer.example' } })).body.data.mails;
    const folder = `${context.platform.demo.workspaceId}/${mail!.mail_id}/`;
    expect((await deps.inboundMail!.blobs.list(folder)).length).toBeGreaterThanOrEqual(2);
    expect((await context.api('visitors/retention_set', { body: { days: 30 } })).status).toBe(200);
    clockOffsetMs = 31 * 24 * 60 * 60 * 1000;
    try {
      expect((await sweepRetention(deps)).erased).toBeGreaterThanOrEqual(1);
      expect(await readInboundMail(deps, mail!.mail_id)).toBeUndefined();
      expect(await deps.inboundMail!.blobs.list(folder)).toEqual([]);
    } finally {
      await context.api('visitors/retention_set', { body: { days: null } });
      clockOffsetMs = 0;
    }
  });
});
