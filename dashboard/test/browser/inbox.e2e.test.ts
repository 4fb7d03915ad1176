import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { addPerson } from '../../../lambdas/test/people/helpers';
import { localChatUrl, widgetVisitor } from '../../../lambdas/test/support/widget-visitor';
import { appendMessage, openConversation } from '../../../lambdas/src/domains/conversations/conversations';
import {
  axeViolations,
  checkNarrowDark,
  heading,
  mailTo,
  otherSite,
  OWNER_EMAIL,
  screenshot,
  signedInPage,
  signIn,
  startDashboard,
  type DashboardHarness,
} from './support';

// The inbox (issue 29, item 3) with two pages: a visitor's widget on a shop's page and a teammate's dashboard. The
// visitor asks for a person, the conversation waits under Waiting (counted unread until the teammate is shown it), the teammate claims it and replies, the visitor
// sees the reply without a reload and the inbox sees the visitor's answer live, then the teammate hands back. A second
// teammate's inbox, open on All from the start, sees the new conversation and its messages pushed (never read again:
// the list's fallback read is 30 s away). Its own platform and browser.

let h: DashboardHarness;
let inbox: Page;
let visitor: Page;
/** A second teammate (a member), their inbox open on All before the visitor comes. */
let teammate: Page;
/** The list pages the second teammate's inbox read once it showed its empty list: pushed changes need none. */
const teammateListReads: string[] = [];
let shop: Awaited<ReturnType<typeof otherSite>>;
beforeAll(async () => {
  h = await startDashboard();
  inbox = (await h.open('/dashboard/')).page;
  await heading(inbox, 'Sign in');
  await signIn(h, inbox, OWNER_EMAIL);
  // A shop on 127.0.0.1 and another port: another origin (the seeded agent allows http://127.0.0.1:*).
  shop = await otherSite(
    `<!doctype html><html lang="en"><head><title>Shop</title></head><body><main><h1>Shop</h1></main><script src="${h.origin}/embed/loader.js" data-agent-id="${h.agentId}" async></script></body></html>`,
  );
  await addPerson(h.platform, 'ana@demo.example', 'member');
  teammate = (await signedInPage(h, 'ana@demo.example')).page;
  await teammate.evaluate((target) => (location.hash = target), `#/agents/${h.agentId}/conversations`);
  await heading(teammate, /^Conversations$/);
  await teammate.getByRole('tab', { name: /^All / }).click();
  await teammate.getByText('No conversations here.').waitFor();
  teammate.on('request', (request) => {
    if (/conversations\/list\?.*limit=50/.test(request.url())) teammateListReads.push(request.url());
  });
  visitor = await (await h.browser.newContext()).newPage();
  // What the widget waits for is pushed to it through the platform's live stream: a longer wait than the pages', for a busy machine.
  visitor.setDefaultTimeout(20_000);
  await visitor.goto(shop.url);
}, 60_000);
afterAll(async () => {
  await shop?.close();
  await h?.stop();
});

const widget = (selector: string) => visitor.locator(`#service-chat ${selector}`);
async function visitorSays(text: string) {
  await widget('textarea').fill(text);
  await visitor.keyboard.press('Enter');
}
/** An inbox tab by its label and count ("Waiting 1"). */
const tab = (labelAndCount: string) => inbox.getByRole('tab', { name: labelAndCount, exact: true });

describe('the inbox', () => {
  it('shows a visitor who asks for a person under Waiting, counted unread until shown; the teammate claims, replies live to the widget, hands back, closes and reopens', async () => {
    await widget('.scw-fab').click();
    await visitorSays('I want to talk to a human');
    await widget('.scw-msg[data-role=event]').first().waitFor({ timeout: 15_000 });
    // The other teammate's list gets the new conversation pushed, unread for them.
    const theirRow = teammate.locator('.conversations > li');
    await theirRow.filter({ hasText: /\d+ unread/ }).waitFor();
    expect(await theirRow.count()).toBe(1);

    // Told wherever they are: the navigation and the browser tab count what the teammate has not read yet.
    const counted = inbox.getByRole('link', { name: /^Agents \d+ unread$/ });
    await counted.waitFor({ timeout: 15_000 });
    const unread = Number(/(\d+) unread/.exec((await counted.textContent())!)![1]);
    expect(unread).toBeGreaterThan(0);
    await inbox.waitForFunction((count) => document.title === `(${count}) Agents · Dashboard`, unread);
    await inbox.evaluate((target) => (location.hash = target), `#/agents/${h.agentId}/conversations`);
    await heading(inbox, /^Conversations$/);
    expect(await inbox.title()).toBe(`(${unread}) Conversations · Dashboard`);
    await tab('Waiting 1').and(inbox.locator('[aria-selected=true]')).waitFor();
    const waiting = inbox.locator('.conversations > li');
    await waiting.first().waitFor();
    expect(await waiting.count()).toBe(1);
    expect(await waiting.first().textContent()).toContain(`${unread} unread`);
    await waiting.first().getByRole('button').click();
    const transcript = inbox.getByRole('list', { name: 'Transcript' });
    await transcript.getByText('I want to talk to a human').waitFor();
    // Shown, so read: the counts go, in the navigation and the browser tab.
    await inbox.waitForFunction(() => document.title === 'Conversations · Dashboard', undefined, { timeout: 15_000 });
    expect(await inbox.getByRole('link', { name: 'Agents', exact: true }).count()).toBe(1);
    // The page the visitor was on.
    expect(await inbox.locator('.about').textContent()).toContain(shop.url);
    // The agent's summary for the teammate, and who handles it.
    await inbox.locator('.about').getByText('The visitor asked for a person: "I want to talk to a human"').waitFor();
    expect(await inbox.locator('.about').textContent()).toContain('Waiting for a teammate');
    expect(await axeViolations(inbox)).toEqual([]);

    await inbox.getByRole('button', { name: 'Claim' }).click();
    const joined = transcript.locator('.event-text', { hasText: / joined$/ });
    await joined.waitFor();
    const name = (await joined.textContent())!.replace(/ joined$/, '');
    await widget('.scw-msg[data-role=event]')
      .filter({ hasText: `${name} joined` })
      .waitFor();
    await tab('Mine 1').waitFor();
    await tab('Waiting 0').waitFor();
    await inbox.waitForFunction(() => document.title === 'Conversations · Dashboard', undefined, { timeout: 15_000 });
    expect(await inbox.getByRole('link', { name: 'Agents', exact: true }).count()).toBe(1);

    await inbox.getByLabel('Message').fill('Hello, I am here to help.');
    await inbox.getByRole('button', { name: 'Reply to the visitor' }).click();
    await widget('.scw-msg[data-role=teammate]').filter({ hasText: 'Hello, I am here to help.' }).waitFor();
    // An internal note stays in the inbox: marked as such, never in the widget.
    await inbox.getByLabel('Message').fill('Asked about a refund last week');
    await inbox.getByRole('button', { name: 'Add internal note' }).click();
    await transcript.locator('.message.note').filter({ hasText: 'Asked about a refund last week' }).waitFor();
    expect(await transcript.locator('.message.note .who').textContent()).toMatch(/^Internal note/);

    // The visitor's answer appears in the open conversation without a reload, as text (no element made of it).
    const hostile = 'Thanks! <img src=x onerror="window.__owned=1"> bye';
    await visitorSays(hostile);
    await transcript.locator('.message.user').filter({ hasText: hostile }).waitFor();
    expect(await inbox.locator('img[src=x]').count()).toBe(0);
    // The other teammate's row follows: claimed by the owner, and the visitor's new message counted.
    const messages = await transcript.locator('.message').count();
    await theirRow
      .filter({ hasText: `${messages} messages` })
      .filter({ has: teammate.locator('.row-holder', { hasText: name }) })
      .waitFor();
    expect(teammateListReads).toEqual([]);
    expect(await visitor.evaluate(() => document.querySelector('#service-chat')!.shadowRoot!.textContent)).not.toContain('Asked about a refund last week');
    await screenshot(inbox, 'inbox-conversation');

    await inbox.getByRole('button', { name: 'Hand back to the agent' }).click();
    await transcript.getByText(`${name} handed the conversation back to the agent`).waitFor();
    await widget('.scw-msg[data-role=event]').filter({ hasText: name }).last().waitFor();
    await inbox.waitForFunction(() => document.querySelector('.about')?.textContent?.includes('The agent answers'));
    expect(await inbox.getByRole('button', { name: 'Hand back to the agent' }).count()).toBe(0);

    // Closed, then reopened: it waits for a teammate again.
    await inbox.getByRole('button', { name: 'Close' }).click();
    await inbox.waitForFunction(() => document.querySelector('.about')?.textContent?.includes('Closed'));
    await inbox.getByRole('button', { name: 'Reopen' }).click();
    await transcript.getByText(`${name} reopened the conversation`).waitFor();
    await inbox.waitForFunction(() => document.querySelector('.about')?.textContent?.includes('Waiting for a teammate'));
    await widget('.scw-msg[data-role=event]')
      .filter({ hasText: `${name} reopened the conversation` })
      .waitFor();
    // Two pages and a widget through a dozen pushed steps: 10-20 s alone, more beside other suites on two cores.
  }, 60_000);

  it('sets the workspace’s availability: away makes nobody available, and the form keeps what was saved', async () => {
    await inbox.evaluate((target) => (location.hash = target), `#/agents/${h.agentId}/conversations`);
    await heading(inbox, /^Conversations$/);
    const section = inbox.locator('details.availability');
    await section.locator('summary').click();
    await section.getByText('teammates are available now').waitFor();
    await section.getByLabel('Availability').selectOption('away');
    await section.getByLabel('Claim timeout in minutes (empty: wait without a limit)').fill('5');
    await section.getByRole('button', { name: 'Save settings' }).click();
    await section.getByText('Saved.').waitFor();
    await section.getByText('nobody is available now: visitors are asked for an e-mail address').waitFor();
    expect(await axeViolations(inbox)).toEqual([]);
    // Read again: the form shows what the workspace has.
    await inbox.reload();
    await heading(inbox, /^Conversations$/);
    await inbox.locator('details.availability summary').click();
    expect(await inbox.locator('details.availability').getByLabel('Availability').inputValue()).toBe('away');
    expect(await inbox.locator('details.availability').getByLabel('Claim timeout in minutes (empty: wait without a limit)').inputValue()).toBe('5');
  });

  it('lets a teammate triage a row without opening it: who, the channel, the last message’s first line and why it waits; axe clean, light and dark, 375 px', async () => {
    const customer = widgetVisitor(localChatUrl(h.platform.url, h.agentId));
    await customer.say('I want to talk to a human');
    const hostile = '<img src=x onerror="window.__owned=1"> where is my order #1234?';
    await customer.say(`${hostile}\nIt was due Monday.`);
    await inbox.evaluate((target) => (location.hash = target), `#/agents/${h.agentId}/conversations`);
    await heading(inbox, /^Conversations$/);
    await inbox.getByRole('tab', { name: /^Waiting / }).click();
    const row = inbox.locator('.conversations > li').filter({ hasText: `Visitor ${customer.visitorId.slice(0, 8)}` });
    // Pushed by the inbox stream, or read as the tab opens: the visitor's last message is the row's preview.
    await row.locator('.row-preview', { hasText: hostile }).waitFor({ timeout: 15_000 });
    expect(await row.locator('.row-preview').textContent()).toBe(hostile);
    expect(await row.locator('.channel').textContent()).toBe('Widget');
    expect(await row.locator('.row-why').textContent()).toBe('Waiting · The visitor asked for a person: "I want to talk to a human"');
    expect(await row.locator('img').count()).toBe(0);
    expect(await inbox.evaluate(() => '__owned' in window)).toBe(false);
    expect(await axeViolations(inbox)).toEqual([]);
    await screenshot(inbox, 'inbox-list-light');

    await inbox.setViewportSize({ width: 375, height: 740 });
    await inbox.emulateMedia({ colorScheme: 'dark' });
    try {
      await row.locator('.row-preview').waitFor();
      expect(await axeViolations(inbox)).toEqual([]);
      expect(await inbox.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
      // Still readable at 375 px: the row's parts stay inside it.
      const [rowBox, previewBox] = await Promise.all([row.boundingBox(), row.locator('.row-preview').boundingBox()]);
      expect(previewBox!.x + previewBox!.width).toBeLessThanOrEqual(rowBox!.x + rowBox!.width + 1);
      await screenshot(inbox, 'inbox-list-375-dark');
    } finally {
      await inbox.setViewportSize({ width: 1280, height: 860 });
      await inbox.emulateMedia({ colorScheme: 'light' });
    }
  });

  it('shows an e-mail conversation: the channel and subject in its row and header, the sender, and a composer whose reply goes by e-mail in the thread; axe clean, light and dark, 375 px', async () => {
    // An e-mail conversation as the mail door opens it (the conversations domain on the platform's own store).
    const conversationId = crypto.randomUUID();
    const email = { address: 'jane@customer.example', subject: 'Charged twice for order 1234' };
    await openConversation(h.platform.deps, {
      conversationId,
      agentId: h.agentId,
      workspaceId: h.platform.demo.workspaceId,
      visitorId: crypto.randomUUID(),
      locale: 'en',
      email,
    });
    await appendMessage(h.platform.deps, conversationId, 'user', 'Hello,\nI was charged twice for order 1234.');
    await inbox.evaluate((target) => (location.hash = target), `#/agents/${h.agentId}/conversations`);
    await heading(inbox, /^Conversations$/);
    await inbox.getByRole('tab', { name: /^All / }).click();
    const row = inbox.locator('.conversations > li').filter({ hasText: email.address });
    await row.locator('.row-subject', { hasText: email.subject }).waitFor({ timeout: 15_000 });
    expect(await row.locator('.channel').textContent()).toBe('E-mail');
    expect(await row.locator('.row-preview').textContent()).toBe('Hello,');
    expect(await row.locator('.row-why').textContent()).toBe('The agent answers');

    await row.getByRole('button').click();
    const conversation = inbox.getByRole('region', { name: 'Conversation' });
    await conversation.getByRole('heading', { level: 2, name: `E-mail ${email.subject}` }).waitFor();
    expect(await conversation.locator('.about').textContent()).toContain(`From${email.address}`);
    expect(await conversation.locator('.message.user .who').textContent()).toBe(email.address);
    await conversation.getByRole('button', { name: 'Claim' }).click();
    await conversation.getByText(`Sent by e-mail to ${email.address}`).waitFor();
    expect(await axeViolations(inbox)).toEqual([]);
    // The reply goes by mail, in the conversation's thread: Re: its subject, answered to its own reply address.
    await conversation.getByLabel('Message').fill('We refunded the second charge.');
    await conversation.getByRole('button', { name: 'Reply by e-mail' }).click();
    await conversation.locator('.message.teammate').filter({ hasText: 'We refunded the second charge.' }).waitFor();
    const mailed = await mailTo(h, email.address, /We refunded the second charge\./);
    expect(mailed.subject).toBe(`Re: ${email.subject}`);
    expect(mailed.headers['reply-to']).toMatch(/\+[0-9A-Za-z]+@/);
    await screenshot(inbox, 'inbox-email-light');
    await checkNarrowDark(inbox, 'inbox-email-375-dark', () => conversation.getByRole('button', { name: 'Reply by e-mail' }).waitFor());
  });
});
