import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { until } from '../../../lambdas/test/support/runs';
import { scriptedModel } from '../../../lambdas/test/support/scripted-model';
import { embedTag, hostPage, startHarness, type Harness } from './harness';

// "Nobody available" (issue 29) as the visitor sees it: the team is away, the visitor asks for a person, the agent
// says nobody is available and the widget offers an e-mail field (a bad address is refused in place); the visitor
// leaves their address and goes; the teammate's reply reaches the local mailbox, and it is in the widget when the
// visitor comes back.

const model = scriptedModel([{ text: 'Happy to help.' }]);
const ADDRESS = 'ada@example.com';

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ model });
});
afterAll(async () => {
  await h?.stop();
});

const emailField = '#service-chat [data-role=email-form] input';
const mailbox = async () => ((await (await fetch(`${h.platform.url}/dev/mail.json`)).json()) as { mail: { to: string; text: string }[] }).mail;

describe('nobody available', () => {
  it('asks for an e-mail address, takes only a valid one, and shows the teammate’s reply when the visitor returns', async () => {
    expect((await h.api('conversations/availability_set', { body: { mode: 'away', time_zone: 'UTC', hours: null, claim_timeout_minutes: null } })).status).toBe(
      200,
    );
    const { page, errors } = await h.open(null);
    const site = `${h.platform.url}/test/away.html`;
    const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Away</title></head><body>
      ${embedTag({ 'data-agent-id': h.agentId, 'data-show-delay': '0', 'data-teaser-delay': '60000', 'data-idle-nudge-delay': '0' })}</body></html>`;
    await hostPage(page, site, html);
    await page.waitForFunction(() => Boolean(window.__service_chat));
    await page.evaluate(() => window.__service_chat!.emit('handoff', { text: 'A person, please' }));

    // The agent's fixed message, then the field for the address.
    await page.locator('#service-chat .scw-msg[data-role=bot]', { hasText: 'Nobody from our team is available right now.' }).waitFor();
    await page.locator(emailField).waitFor();
    expect(model.doStreamCalls).toHaveLength(0);

    // Not an address: refused in place, nothing sent.
    await page.fill(emailField, 'not an address');
    await page.locator('#service-chat [data-role=email-form] button').click();
    await page.locator('#service-chat [data-role=email-form] [role=alert]', { hasText: 'Please enter a valid e-mail address.' }).waitFor();
    const listed = await h.api<{ conversations: { id: string; visitor_email: string | null }[] }>('conversations/list', { query: { agent_id: h.agentId } });
    const conversation = listed.body.data.conversations[0]!;
    expect(conversation.visitor_email).toBeNull();

    await page.fill(emailField, ADDRESS);
    await page.keyboard.press('Enter');
    await page.locator('#service-chat .scw-msg[data-role=bot]', { hasText: `Thank you. A person from our team will answer you at ${ADDRESS}.` }).waitFor();
    expect(await page.locator(emailField).count()).toBe(0);
    const stored = await h.api<{ conversation: { visitor_email: string | null; email_replies: boolean } }>('conversations/get', {
      query: { conversation_id: conversation.id },
    });
    expect(stored.body.data.conversation).toMatchObject({ visitor_email: ADDRESS, email_replies: true });

    // The visitor leaves; a teammate claims the conversation and replies: the reply goes by e-mail.
    await page.goto('about:blank');
    const members = await h.api<{ members: { user_id: string }[] }>('members/list');
    await h.api('conversations/assign', { body: { conversation_id: conversation.id, user_id: members.body.data.members[0]!.user_id } });
    expect((await h.api('conversations/reply', { body: { conversation_id: conversation.id, text: 'Your refund was issued today.' } })).status).toBe(201);
    const mails = await until(mailbox, (mail) => mail.some((one) => one.to === ADDRESS));
    expect(mails.filter((one) => one.to === ADDRESS)).toHaveLength(1);
    expect(mails.find((one) => one.to === ADDRESS)!.text).toContain('Your refund was issued today.');

    // Back on the site: the reply is in the widget's conversation.
    await hostPage(page, site, html);
    await page.waitForFunction(() => Boolean(window.__service_chat));
    await page.evaluate(() => window.__service_chat!.emit('open'));
    await page.locator('#service-chat .scw-msg[data-role=teammate]', { hasText: 'Your refund was issued today.' }).waitFor();
    expect(await page.locator('#service-chat .scw-msg[data-role=bot]', { hasText: 'Nobody from our team is available right now.' }).count()).toBe(1);
    expect(errors).toEqual([]);
  });

  // The visitor's data was erased while the field was open: the address goes on in a new conversation as an address
  // for a teammate, never as a question to the agent.
  type Listed = { conversations: { id: string; visitor: { id: string }; visitor_email: string | null }[] };

  it('keeps an address left after the visitor’s data was erased on a new conversation, which waits for a teammate; the agent is not asked', async () => {
    expect((await h.api('conversations/availability_set', { body: { mode: 'away', time_zone: 'UTC', hours: null, claim_timeout_minutes: null } })).status).toBe(
      200,
    );
    const { page, errors } = await h.open(null);
    // The live stream would tell the widget of the erasure at once (and close the field): the visitor here answers
    // before it does.
    await page.route(/\/live\?/, (route) => route.abort());
    await hostPage(
      page,
      `${h.platform.url}/test/erased-email.html`,
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Erased</title></head><body>
        ${embedTag({ 'data-agent-id': h.agentId, 'data-show-delay': '0', 'data-teaser-delay': '60000', 'data-idle-nudge-delay': '0' })}</body></html>`,
    );
    await page.waitForFunction(() => Boolean(window.__service_chat));
    await page.evaluate(() => window.__service_chat!.emit('handoff', { text: 'A person, please' }));
    await page.locator(emailField).waitFor();

    const first = (await h.api<Listed>('conversations/list', { query: { agent_id: h.agentId } })).body.data.conversations[0]!;
    const erased = await h.api('visitors/erase', { body: { visitor_id: first.visitor.id }, headers: { 'idempotency-key': `erase-${first.id}` } });
    expect(erased.status, JSON.stringify(erased.body)).toBe(200);

    await page.fill(emailField, ADDRESS);
    await page.keyboard.press('Enter');
    await page
      .locator('#service-chat .scw-msg[data-role=bot]', { hasText: `Thank you. A person from our team will answer you at ${ADDRESS}.` })
      .waitFor({ timeout: 15_000 });
    const listed = (await h.api<Listed>('conversations/list', { query: { agent_id: h.agentId } })).body.data.conversations;
    expect(listed.map((conversation) => conversation.id)).not.toContain(first.id);
    expect(listed[0]).toMatchObject({ visitor_email: ADDRESS });
    expect(model.doStreamCalls).toHaveLength(0);
    // The aborted live streams and the erased conversation's 410 are the only failed loads; no script error.
    expect(errors.filter((error) => !error.startsWith('Failed to load resource'))).toEqual([]);
  });
});
