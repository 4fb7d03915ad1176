import { createHmac } from 'node:crypto';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { embedTag, hostPage, startHarness, W, type Harness } from './harness';

// A host identifies its signed-in visitor (user id + the HMAC its server computed): the conversation follows the
// visitor to another browser; a forged hash is anonymous and gets nothing.

const QUESTION = 'Where is the pricing?';

let h: Harness;
let secret: string;
beforeAll(async () => {
  h = await startHarness();
  const rotated = await h.api<{ identity_secret: string }>('agents/identity_secret/', { body: { agent_id: h.agentId } });
  secret = rotated.body.data.identity_secret;
});
afterAll(async () => {
  await h?.stop();
});

const sign = (userId: string) => createHmac('sha256', secret).update(userId).digest('hex');

/** A fresh browser context (another device) on a host page; the identity as loader attributes, when given. */
async function device(attributes: Record<string, string> = {}): Promise<Page> {
  const { page } = await h.open(null);
  await hostPage(
    page,
    `${h.platform.url}/test/account.html`,
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Account</title></head><body>
    ${embedTag({ 'data-agent-id': h.agentId, 'data-show-delay': '0', 'data-teaser-delay': '60000', 'data-idle-nudge-delay': '0', ...attributes })}</body></html>`,
  );
  return page;
}

describe('verified visitors', () => {
  it('reads data-user-token: the signed visitor has their conversation in a second browser context', async () => {
    const token = await new SignJWT({ sub: 'user-token-9' })
      .setProtectedHeader({ alg: 'HS256' })
      .setExpirationTime('1h')
      .sign(new TextEncoder().encode(secret));
    const first = await device({ 'data-user-token': token });
    await first.click(W.fab);
    await first.fill(W.input, QUESTION);
    await first.keyboard.press('Enter');
    await first.waitForSelector(W.botDone);
    await first.context().close();

    const second = await device({ 'data-user-token': token });
    const answered = second.waitForResponse((response) => response.url().endsWith('/history'));
    expect(await (await answered).json()).toMatchObject({ verified: true });
    await second.click(W.fab);
    await second.locator(W.userMsg, { hasText: QUESTION }).waitFor();
    await second.context().close();
  });

  it("shows a verified visitor's conversation in a second browser context", async () => {
    const identity = { 'data-user-id': 'user-7', 'data-user-hash': sign('user-7') };
    const first = await device(identity);
    await first.click(W.fab);
    await first.fill(W.input, QUESTION);
    await first.keyboard.press('Enter');
    await first.waitForSelector(W.botDone);
    await first.context().close();

    const second = await device(identity);
    await second.click(W.fab);
    await second.locator(W.userMsg, { hasText: QUESTION }).waitFor();
    expect(await second.locator(W.botDone).count()).toBe(1);
    await second.context().close();
  });

  it('gives a forged hash no history (identified through the bus)', async () => {
    const page = await device();
    await page.waitForFunction(() => Boolean(window.__service_chat));
    const answered = page.waitForResponse((response) => response.url().endsWith('/history'));
    await page.evaluate((hash) => window.__service_chat!.emit('identify', { userId: 'user-7', userHash: hash }), sign('someone-else'));
    expect(await (await answered).json()).toEqual({ verified: false, conversationId: null, messages: [] });
    await page.click(W.fab);
    await page.waitForSelector(W.panel);
    expect(await page.locator(W.userMsg).count()).toBe(0);
    await page.context().close();
  });
});
