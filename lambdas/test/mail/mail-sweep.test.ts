import { createTransport } from 'nodemailer';
import { describe, expect, it } from 'vitest';
import { findAgentById } from '../../src/domains/agents/agents';
import { sweepMails, UNWORKED_AFTER_MS } from '../../src/domains/mail/mail-sweeper';
import { queryUnworkedMails, readInboundMail } from '../../src/domains/mail/repository';
import { failQueueSendOnce } from '../support/faults';
import { usePlatform } from '../support/platform';
import { waitFor } from '../support/wait-for';
import { mailQueueWatch, noDns } from './inbound';

const { observer, allWorked } = mailQueueWatch();

describe('the mail sweeper', () => {
  const context = usePlatform({ mailResolver: noDns, observer });
  const smtp = () => createTransport({ host: '127.0.0.1', port: context.platform.smtpPort, secure: false, ignoreTLS: true });
  const answersTo = async (address: string) =>
    ((await (await fetch(`${context.platform.url}/dev/mail.json`)).json()) as { mail: { to: string }[] }).mail.filter((mail) => mail.to === address);

  it('answers, exactly once, a mail accepted with 250 whose queue message was lost', async () => {
    const { deps } = context.platform;
    const agent = (await findAgentById(deps, context.agentId))!;
    failQueueSendOnce(deps, 'mail');
    const sent = await smtp().sendMail({ from: 'cy@customer.example', to: agent.email, subject: 'Lost?', text: 'Do you ship to Norway?' });
    expect(sent.response).toMatch(/^250/);

    const [stored] = await queryUnworkedMails(deps, new Date(Date.now() + 60_000).toISOString(), 10);
    expect(stored).toMatchObject({ envelopeFrom: 'cy@customer.example', state: 'received' });
    // A fresh mail is not swept (its message may still be on its way); one unworked past the bound is.
    expect(await sweepMails(deps)).toEqual([]);
    const later = { ...deps, now: () => new Date(Date.now() + UNWORKED_AFTER_MS + 60_000) };
    expect(await sweepMails(later)).toEqual([stored!.mailId]);

    await waitFor(async () => ((await readInboundMail(deps, stored!.mailId))?.state === 'answered' ? true : undefined));
    expect(await answersTo('cy@customer.example')).toHaveLength(1);
    // The lost message turns up after all, and the sweeper runs again: nothing more is answered.
    await deps.queue.send('mail', { mailId: stored!.mailId });
    expect(await sweepMails(later)).toEqual([]);
    await allWorked();
    expect(await answersTo('cy@customer.example')).toHaveLength(1);
    const list = await context.api<{ conversations: { id: string; email: { address: string } | null }[] }>('conversations/list', {
      query: { agent_id: context.agentId },
    });
    const conversation = list.body.data.conversations.find((item) => item.email?.address === 'cy@customer.example')!;
    const transcript = await context.api<{ messages: { role: string; text: string }[] }>('conversations/get', { query: { conversation_id: conversation.id } });
    expect(transcript.body.data.messages.map((message) => message.role)).toEqual(['user', 'assistant']);
  });
});
