import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { until } from '../../../lambdas/test/support/runs';
import { scriptedModel } from '../../../lambdas/test/support/scripted-model';
import { embedTag, hostPage, startHarness, W, type Harness } from './harness';

// People in the conversation (issue 29), as a visitor and an integrator see it: the agent offers a person, the visitor
// asks for one, a teammate claims and replies over REST, the widget shows it without a reload (who joined, the typing
// indicator, the text as text), the teammate hands back and the agent answers the next question. A visitor whose data
// was erased meanwhile goes on in a new conversation.

const shadowText = "document.querySelector('#service-chat').shadowRoot.textContent";
const model = scriptedModel([
  { text: 'I cannot check contracts myself. [Action:Talk to a person|handoff]' },
  { text: 'We are open from 9 to 5.' },
  { text: 'Hello! How can I help?' },
  { text: 'Yes, in a new conversation.' },
  { text: 'Still here.' },
]);

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ model });
});
afterAll(async () => {
  await h?.stop();
});

describe('a person in the widget', () => {
  it('hands the visitor to a teammate who claims and replies live, then hands back to the agent', async () => {
    const { page, errors } = await h.open(null);
    await hostPage(
      page,
      `${h.platform.url}/test/handoff.html`,
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Handoff</title></head><body>
      ${embedTag({ 'data-agent-id': h.agentId, 'data-show-delay': '0', 'data-teaser-delay': '60000', 'data-idle-nudge-delay': '0' })}</body></html>`,
    );
    await page.waitForFunction(() => Boolean(window.__service_chat));
    await page.evaluate(() => {
      const w = window as unknown as { __handoffs: unknown[] };
      w.__handoffs = [];
      window.__service_chat!.on('handoff', (payload) => w.__handoffs.push(payload));
    });
    const handoffs = () => page.evaluate(() => (window as unknown as { __handoffs: unknown[] }).__handoffs);

    await page.click(W.fab);
    await page.fill(W.input, 'Can you check my contract?');
    await page.keyboard.press('Enter');
    // The agent offered a person: its reply carries the Talk to a person button.
    const talk = page.locator('#service-chat .scw-action', { hasText: 'Talk to a person' });
    await talk.click();

    // The message went to people, not to the agent; the widget says a person will join.
    await page.locator('#service-chat .scw-msg[data-role=event]', { hasText: 'A person from the team will join shortly.' }).waitFor();
    expect(model.doStreamCalls).toHaveLength(1);
    await until(handoffs, (events) => events.some((event) => JSON.stringify(event) === JSON.stringify({ handler: 'people', assignee: null })));

    // The integrator: finds the conversation, claims it for a member, types, replies.
    const listed = await h.api<{ conversations: { id: string; handler: string; handoff: { reason: string } | null }[] }>('conversations/list', {
      query: { agent_id: h.agentId },
    });
    const conversation = listed.body.data.conversations[0]!;
    expect(conversation).toMatchObject({ handler: 'people', handoff: { reason: 'visitor' } });
    const members = await h.api<{ members: { user_id: string }[] }>('members/list');
    const claimed = await h.api<{ conversation: { assignee: { name: string } } }>('conversations/assign', {
      body: { conversation_id: conversation.id, user_id: members.body.data.members[0]!.user_id },
    });
    const name = claimed.body.data.conversation.assignee.name;
    await page.locator('#service-chat .scw-msg[data-role=event]', { hasText: `${name} joined` }).waitFor();
    // The header says who answers now.
    expect(await page.locator('#service-chat .scw-header .scw-role').textContent()).toBe(name);

    await h.api('conversations/typing', { body: { conversation_id: conversation.id } });
    await page.locator('#service-chat [data-role=teammate-typing] .scw-typing').waitFor();
    const hostile = 'Hello! <img src=x onerror="window.__owned=1"> I can help.';
    expect((await h.api('conversations/reply', { body: { conversation_id: conversation.id, text: hostile } })).status).toBe(201);
    const bubble = page.locator('#service-chat .scw-msg[data-role=teammate]');
    await bubble.waitFor();
    // The teammate's text is text: shown as written, no element made of it; the typing indicator is gone.
    expect(await bubble.textContent()).toBe(`${name}${hostile}`);
    expect(await page.evaluate(() => document.querySelector('#service-chat')!.shadowRoot!.querySelectorAll('img[src=x]').length)).toBe(0);
    expect(await page.locator('#service-chat [data-role=teammate-typing]').count()).toBe(0);
    await until(handoffs, (events) => events.some((event) => JSON.stringify(event) === JSON.stringify({ handler: 'people', assignee: name })));

    // Dark and light: the teammate's bubble follows the site's theme.
    const background = () => bubble.locator('.scw-bubble').evaluate((element) => getComputedStyle(element).backgroundColor);
    const light = await background();
    await page.evaluate(() => document.body.classList.add('dark'));
    await until(background, (color) => color !== light);

    // While the teammate has it, the visitor's message goes to them: no reply from the agent.
    await page.fill(W.input, 'My contract number is 42');
    await page.keyboard.press('Enter');
    await until(
      () => h.api<{ messages: { role: string; text: string }[] }>('conversations/get', { query: { conversation_id: conversation.id } }),
      (response) => response.body.data.messages.some((message) => message.text === 'My contract number is 42'),
    );
    expect(model.doStreamCalls).toHaveLength(1);

    await h.api('conversations/handback', { body: { conversation_id: conversation.id } });
    await page.locator('#service-chat .scw-msg[data-role=event]', { hasText: 'handed the conversation back' }).waitFor();
    await page.fill(W.input, 'When are you open?');
    await page.keyboard.press('Enter');
    await page.waitForFunction(`${shadowText}.includes('We are open from 9 to 5.')`);
    expect(model.doStreamCalls).toHaveLength(2);
    // The agent is told what the teammate said, as the company's side of the conversation.
    expect(JSON.stringify(model.doStreamCalls[1]!.prompt)).toContain('I can help.');
    expect(await page.evaluate(() => (window as unknown as { __owned?: number }).__owned)).toBeUndefined();
    expect(errors).toEqual([]);
  });

  it('shows a teammate on a phone: the live conversation fits the full-screen panel', async () => {
    const { page, errors } = await h.open(null, { viewport: { width: 375, height: 740 }, isMobile: true, hasTouch: true });
    await hostPage(
      page,
      `${h.platform.url}/test/handoff-mobile.html`,
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>Handoff</title></head><body>
      ${embedTag({ 'data-agent-id': h.agentId, 'data-show-delay': '0', 'data-teaser-delay': '60000', 'data-idle-nudge-delay': '0' })}</body></html>`,
    );
    await page.waitForFunction(() => Boolean(window.__service_chat));
    await page.evaluate(() => window.__service_chat!.emit('handoff', { text: 'A person, please' }));
    await page.locator('#service-chat .scw-msg[data-role=event]').first().waitFor();
    const listed = await h.api<{ conversations: { id: string; handler: string }[] }>('conversations/list', { query: { agent_id: h.agentId } });
    const waiting = listed.body.data.conversations.find((conversation) => conversation.handler === 'people')!;
    const members = await h.api<{ members: { user_id: string }[] }>('members/list');
    await h.api('conversations/assign', { body: { conversation_id: waiting.id, user_id: members.body.data.members[0]!.user_id } });
    await h.api('conversations/reply', { body: { conversation_id: waiting.id, text: 'On my way.' } });
    const bubble = page.locator('#service-chat .scw-msg[data-role=teammate]', { hasText: 'On my way.' });
    await bubble.waitFor();
    const box = (await bubble.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(375);
    expect(errors).toEqual([]);
  });

  it("starts a new conversation once the visitor's data was erased: the next message is answered, nothing of the erased one stays", async () => {
    const { page, errors } = await h.open(null);
    await hostPage(
      page,
      `${h.platform.url}/test/erased.html`,
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Erased</title></head><body>
      ${embedTag({ 'data-agent-id': h.agentId, 'data-show-delay': '0', 'data-teaser-delay': '60000', 'data-idle-nudge-delay': '0' })}</body></html>`,
    );
    await page.waitForFunction(() => Boolean(window.__service_chat));
    await page.click(W.fab);
    // Whichever turn of the script answers (the tests before may have taken a different number of turns).
    const answered = () => page.locator('#service-chat .scw-msg[data-role=bot][data-done=true]:not(.scw-error)').first().waitFor();
    await page.fill(W.input, 'Hello from before the erasure');
    await page.keyboard.press('Enter');
    await answered();
    type Listed = { conversations: { id: string; visitor: { id: string } }[] };
    const first = (await h.api<Listed>('conversations/list', { query: { agent_id: h.agentId } })).body.data.conversations[0]!;
    const erased = await h.api('visitors/erase', { body: { visitor_id: first.visitor.id }, headers: { 'idempotency-key': `erase-${first.id}` } });
    expect(erased.status, JSON.stringify(erased.body)).toBe(200);

    await page.fill(W.input, 'Are you still there?');
    await page.keyboard.press('Enter');
    // The erased conversation is gone from the panel (and its stored copy): the message and its answer alone; no error was shown.
    const shown = () =>
      page
        .locator('#service-chat .scw-msg')
        .evaluateAll((messages) =>
          messages.map(
            (message) => `${message.getAttribute('data-role')}:${message.getAttribute('data-done')}${message.classList.contains('scw-error') ? ':error' : ''}`,
          ),
        );
    await expect.poll(shown, { timeout: 15_000 }).toEqual(['user:true', 'bot:true']);
    expect(await page.locator('#service-chat .scw-msg').first().textContent()).toContain('Are you still there?');
    expect(await page.evaluate(() => JSON.stringify({ ...sessionStorage, ...localStorage }))).not.toContain('before the erasure');
    const now = (await h.api<Listed>('conversations/list', { query: { agent_id: h.agentId } })).body.data.conversations[0]!;
    expect(now.id).not.toBe(first.id);
    expect(now.visitor.id).toBe(first.visitor.id);
    // Only the browser's own line about the refused request (410) is on the console.
    expect(errors).toEqual(['Failed to load resource: the server responded with a status of 410 (Gone)']);
  });
});
