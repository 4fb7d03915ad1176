import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { embedTag, events, hostPage, recordEvents, startHarness, turnstile, W, type Harness } from './harness';

// A host page's `send` and `botMessage` while the agent still answers: they wait for the reply, the bus says so, and
// they go once the reply ends or the visitor stops it.

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.stop();
});

const busEmit = (page: Page, name: string, payload?: unknown) =>
  page.evaluate(([n, p]) => window.__service_chat!.emit(n as never, p as never), [name, payload] as const);

/** Holds each chat request until the test lets it through, so a reply is still streaming while the host acts. */
async function holdReplies(page: Page): Promise<() => void> {
  const gate = turnstile();
  await page.route('**/v1/agents/*/chat', async (route) => {
    await gate.pass();
    // A request the visitor stopped meanwhile is gone: nothing to continue.
    await route.continue().catch(() => undefined);
  });
  return gate.release;
}

/** The conversation as the visitor sees it: each message's role and text, in order. */
const transcript = (page: Page) =>
  page.$$eval(W.userMsg.replace('[data-role=user]', ''), (nodes) => nodes.map((node) => `${node.getAttribute('data-role')}: ${node.textContent}`));

async function openWidget(page: Page) {
  await hostPage(
    page,
    `${h.platform.url}/test/queue.html`,
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Queue</title></head><body>
    ${embedTag({ 'data-agent-id': h.agentId, 'data-show-delay': '0', 'data-teaser-delay': '60000', 'data-idle-nudge-delay': '0' })}</body></html>`,
  );
  await page.waitForSelector(`${W.fab}[data-ready=true]`);
  await recordEvents(page);
  await page.evaluate(() =>
    window.__service_chat!.on(
      'queued' as never,
      ((payload: unknown) => (window as unknown as { __events: unknown[] }).__events.push(['queued', payload])) as never,
    ),
  );
  await page.click(W.fab);
}

/** The widget open on a host page, the visitor's question sent, its reply held (typing shows). */
async function askAndWait(page: Page, question: string) {
  await openWidget(page);
  await page.fill(W.input, question);
  await page.keyboard.press('Enter');
  await page.waitForSelector('#service-chat .scw-typing');
}

const userMessages = async (page: Page) =>
  (await events(page)).filter(([name]) => name === 'userMessage').map(([, payload]) => (payload as { text: string }).text);
const queuedEvents = async (page: Page) => (await events(page)).filter(([name]) => name === 'queued').map(([, payload]) => payload);

describe('host messages while a reply streams', () => {
  it('wait for the reply to end, in order, and the bus says they wait', async () => {
    const { page, context, errors } = await h.open(null);
    const release = await holdReplies(page);
    await askAndWait(page, 'What do you offer?');

    await busEmit(page, 'botMessage', { text: 'A note from the page' });
    await busEmit(page, 'send', { text: 'And your pricing?' });
    expect(await queuedEvents(page)).toEqual([
      { kind: 'botMessage', text: 'A note from the page', accepted: true, waiting: 1 },
      { kind: 'send', text: 'And your pricing?', accepted: true, waiting: 2 },
    ]);
    // Nothing jumps ahead of the reply on screen.
    expect(await transcript(page)).toEqual(['user: What do you offer?', 'bot: ']);
    expect(await userMessages(page)).toEqual(['What do you offer?']);

    release();
    // The reply ends; the note shows, then the host's send goes and is answered in turn.
    await page.waitForFunction(() => document.querySelector('#service-chat')!.shadowRoot!.querySelectorAll('.scw-msg[data-role=user]').length === 2);
    release();
    await page.waitForFunction(() =>
      [...document.querySelector('#service-chat')!.shadowRoot!.querySelectorAll('.scw-msg')].every((m) => m.getAttribute('data-done') === 'true'),
    );
    const shown = await transcript(page);
    expect(shown.map((line) => line.split(':')[0])).toEqual(['user', 'bot', 'bot', 'user', 'bot']);
    expect(shown[2]).toBe('bot: A note from the page');
    expect(shown[3]).toBe('user: And your pricing?');
    expect(await userMessages(page)).toEqual(['What do you offer?', 'And your pricing?']);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('go when the visitor stops the reply; past five waiting the bus says it was not kept', async () => {
    const { page, context, warnings } = await h.open(null);
    const release = await holdReplies(page);
    await askAndWait(page, 'Tell me everything');

    for (let n = 1; n <= 6; n++) await busEmit(page, 'send', { text: `Host question ${n}` });
    const queued = (await queuedEvents(page)) as { accepted: boolean; waiting: number }[];
    expect(queued.map(({ accepted, waiting }) => [accepted, waiting])).toEqual([
      [true, 1],
      [true, 2],
      [true, 3],
      [true, 4],
      [true, 5],
      [false, 5],
    ]);
    expect(warnings.some((warning) => warning.includes('ignored "send"'))).toBe(true);

    await page.click('#service-chat .scw-send[aria-label=Stop]');
    // The stopped reply ends and the first waiting question goes at once.
    await page.waitForFunction(() => document.querySelector('#service-chat')!.shadowRoot!.querySelectorAll('.scw-msg[data-role=user]').length === 2);
    expect(await userMessages(page)).toEqual(['Tell me everything', 'Host question 1']);
    release(); // the stopped request, which the page no longer waits for
    for (let n = 1; n <= 5; n++) {
      await page.waitForFunction(
        (count) => document.querySelector('#service-chat')!.shadowRoot!.querySelectorAll('.scw-msg[data-role=user]').length === count,
        n + 1,
      );
      release();
    }
    await page.waitForFunction(() =>
      [...document.querySelector('#service-chat')!.shadowRoot!.querySelectorAll('.scw-msg')].every((m) => m.getAttribute('data-done') === 'true'),
    );
    expect(await userMessages(page)).toEqual(['Tell me everything', ...[1, 2, 3, 4, 5].map((n) => `Host question ${n}`)]);
    await context.close();
  });
});
