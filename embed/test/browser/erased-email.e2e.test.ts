import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scriptedModel } from '../../../lambdas/test/support/scripted-model';
import { embedTag, hostPage, startHarness, type Harness } from './harness';

// The e-mail field of "nobody available" when the visitor's data was erased while it was open: the address the
// visitor leaves goes on in a new conversation as an address for a teammate, never as a question to the agent.

const model = scriptedModel([{ text: 'Happy to help.' }]);
const ADDRESS = 'grace@example.com';

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ model });
});
afterAll(async () => {
  await h?.stop();
});

const emailField = '#service-chat [data-role=email-form] input';
type Listed = { conversations: { id: string; visitor: { id: string }; visitor_email: string | null }[] };

describe('an e-mail address left after an erasure', () => {
  it('is kept on the new conversation, which waits for a teammate; the agent is not asked', async () => {
    expect((await h.api('conversations/availability_set', { body: { mode: 'away', time_zone: 'UTC', hours: null, claim_timeout_minutes: null } })).status).toBe(200);
    const { page, errors } = await h.open(null);
    // The live stream would tell the widget of the erasure at once (and close the field): the visitor here answers
    // before it does.
    await page.route(/\/live\?/, (route) => route.abort());
    await hostPage(page, `${h.platform.url}/test/erased-email.html`, `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Erased</title></head><body>
      ${embedTag({ 'data-agent-id': h.agentId, 'data-show-delay': '0', 'data-teaser-delay': '60000', 'data-idle-nudge-delay': '0' })}</body></html>`);
    await page.waitForFunction(() => Boolean(window.__service_chat));
    await page.evaluate(() => window.__service_chat!.emit('handoff', { text: 'A person, please' }));
    await page.locator(emailField).waitFor();

    const first = (await h.api<Listed>('conversations/list', { query: { agent_id: h.agentId } })).body.data.conversations[0]!;
    const erased = await h.api('visitors/erase', { body: { visitor_id: first.visitor.id }, headers: { 'idempotency-key': `erase-${first.id}` } });
    expect(erased.status, JSON.stringify(erased.body)).toBe(200);

    await page.fill(emailField, ADDRESS);
    await page.keyboard.press('Enter');
    await page.locator('#service-chat .scw-msg[data-role=bot]', { hasText: `Thank you. A person from our team will answer you at ${ADDRESS}.` }).waitFor({ timeout: 15_000 });
    const listed = (await h.api<Listed>('conversations/list', { query: { agent_id: h.agentId } })).body.data.conversations;
    expect(listed.map((conversation) => conversation.id)).not.toContain(first.id);
    expect(listed[0]).toMatchObject({ visitor_email: ADDRESS });
    expect(model.doStreamCalls).toHaveLength(0);
    // The aborted live streams and the erased conversation's 410 are the only failed loads; no script error.
    expect(errors.filter((error) => !error.startsWith('Failed to load resource'))).toEqual([]);
  });
});
