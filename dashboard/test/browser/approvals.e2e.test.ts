import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { command, contactsNamed, until } from '../../../lambdas/test/support/runs';
import { axeViolations, heading, screenshot, signedInPage, startDashboard, type DashboardHarness } from './support';

// Runs given with autonomy confirm wait for a person: "Waiting for you" and the Runs screen answer them. Its own
// platform and browser, so it runs beside dashboard.e2e.test.ts.

let h: DashboardHarness;
let page: Page;
let errors: string[];
beforeAll(async () => {
  h = await startDashboard();
  ({ page, errors } = await signedInPage(h));
}, 60_000);
afterAll(async () => {
  await h?.stop();
});

type Step = { type: string; decision?: string; note?: string | null; answered_by?: string };
type Status = { status: string; pending_action: { capability: string } | null; steps: Step[] };

const adding = (name: string) => `Please add ${name} (${name.split(' ')[0]!.toLowerCase()}@example.com) to my contacts.`;
const statusOf = async (runId: string) => (await h.api<Status>('agents/command_status/', { query: { run_id: runId, steps_limit: '200' } })).body.data;
/** Waits for the run to be in `status` (a condition, never a fixed sleep). */
const runIn = (runId: string, status: string) =>
  until(
    () => statusOf(runId),
    (run) => run.status === status,
    20_000,
  );
const confirmRun = async (name: string) => {
  const runId = await command(h.api, { agent_id: h.agentId, instruction: adding(name), autonomy: 'confirm' });
  await runIn(runId, 'requires_action');
  return runId;
};

/** Opens a screen by its route (reloading it when it is already open, so its lists are fresh). */
async function go(hash: string, name: RegExp) {
  if (await page.evaluate((target) => location.hash === target, hash)) await page.reload();
  else await page.evaluate((target) => (location.hash = target), hash);
  await heading(page, name);
  await page.waitForFunction(() => !document.querySelector('main [role=status]')?.textContent?.startsWith('Loading'));
}

const waitingCard = (name: string) => page.locator('.waiting .run', { hasText: name });

describe('a run that waits for a person', () => {
  let graceRun: string;

  it('is given with autonomy confirm from the Runs screen, and shows its pending action there with Approve and Reject', async () => {
    await go(`#/agents/${h.agentId}/runs`, /^Runs$/);
    await page.getByLabel('Command').fill(adding('Grace Hopper'));
    await page.getByRole('radio', { name: /^Ask first \(confirm\)/ }).check();
    await page.getByRole('button', { name: 'Give the command' }).click();
    const run = page.locator('.run', { hasText: 'Grace Hopper' }).first();
    await run.and(page.locator('[data-status=requires_action]')).waitFor({ timeout: 20_000 });
    const pending = run.locator('.waiting-action');
    expect(await pending.getByRole('heading', { name: 'Waiting for your approval' }).count()).toBe(1);
    expect(await pending.textContent()).toContain('contacts.create');
    expect(await pending.locator('pre').textContent()).toContain('Grace Hopper');
    expect(await run.getByRole('button', { name: /^Approve contacts\.create/ }).isEnabled()).toBe(true);
    expect(await run.getByRole('button', { name: /^Reject contacts\.create/ }).isEnabled()).toBe(true);
    expect(await run.getByRole('button', { name: /^Stop the run/ }).isEnabled()).toBe(true);
    expect(await run.textContent()).toMatch(/confirm · \d+ tokens/);
    graceRun = (await run.locator('.mono').last().textContent())!.trim();
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'approvals-runs-waiting');
  });

  it('is listed under Waiting for you (from the navigation and the Agents screen) with agent, instruction, action, reason and expiry; no axe violations', async () => {
    await go('#/agents', /^Agents$/);
    await page
      .locator('main .note', { hasText: /wait(s)? for a person/ })
      .getByRole('link', { name: 'Waiting for you' })
      .waitFor();
    await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'Waiting for you' }).click();
    await heading(page, /^Waiting for you$/);
    const card = waitingCard('Grace Hopper');
    await card.waitFor();
    const text = (await card.textContent())!;
    expect(text).toContain('Ada');
    expect(text).toContain(adding('Grace Hopper'));
    expect(text).toContain('contacts.create');
    expect(text).toMatch(/Reason.+\S/);
    expect(text).toMatch(/Expires.+\(in 2[34] h\)/);
    expect(await card.locator('pre').textContent()).toContain('grace@example.com');
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'approvals-waiting-light');
    await page.setViewportSize({ width: 375, height: 740 });
    await page.emulateMedia({ colorScheme: 'dark' });
    await card.getByRole('button', { name: /^Approve/ }).waitFor();
    expect(await axeViolations(page)).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await screenshot(page, 'approvals-waiting-375-dark');
    await page.setViewportSize({ width: 1280, height: 860 });
    await page.emulateMedia({ colorScheme: 'light' });
  });

  it('is approved after confirming: it leaves the list, the run completes and the contact exists', async () => {
    expect(await contactsNamed(h.api, 'Grace Hopper')).toBe(0);
    const card = waitingCard('Grace Hopper');
    await card.getByRole('button', { name: /^Approve contacts\.create/ }).click();
    const dialog = page.getByRole('dialog', { name: 'Approve this action?' });
    await dialog.waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'approvals-approve-confirm');
    await dialog.getByRole('button', { name: 'Approve', exact: true }).click();
    await page
      .getByRole('status')
      .filter({ hasText: `Approved contacts.create for the run ${graceRun}` })
      .waitFor();
    await card.waitFor({ state: 'detached' });
    const done = await runIn(graceRun, 'completed');
    expect(done.steps.find((step) => step.type === 'approval_answered')).toMatchObject({ decision: 'approved' });
    expect(await contactsNamed(h.api, 'Grace Hopper')).toBe(1);
  });

  it('is rejected with a note after confirming: the run completes without the contact, the note goes to the agent', async () => {
    const runId = await confirmRun('Rejected Rita');
    await go('#/approvals', /^Waiting for you$/);
    const card = waitingCard('Rejected Rita');
    await card.getByRole('button', { name: /^Reject contacts\.create/ }).click();
    const dialog = page.getByRole('dialog', { name: 'Reject this action?' });
    await dialog.getByLabel('Note for the agent (optional)').fill('Not this one');
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'approvals-reject-note');
    await dialog.getByRole('button', { name: 'Reject', exact: true }).click();
    await page
      .getByRole('status')
      .filter({ hasText: `Rejected contacts.create for the run ${runId}` })
      .waitFor();
    await card.waitFor({ state: 'detached' });
    const done = await runIn(runId, 'completed');
    const answered = done.steps.find((step) => step.type === 'approval_answered');
    expect(answered).toMatchObject({ decision: 'rejected', note: 'Not this one' });
    // Answered by the signed-in person, not the API key.
    expect(answered?.answered_by).toMatch(/^(?!api_key$)\S+$/);
    expect(done.steps.some((step) => step.type === 'tool_call')).toBe(false);
    expect(await contactsNamed(h.api, 'Rejected Rita')).toBe(0);
  });

  it('says so when someone answered first (409), and refreshes the list', async () => {
    const runId = await confirmRun('Late Larry');
    await go('#/approvals', /^Waiting for you$/);
    const card = waitingCard('Late Larry');
    await card.getByRole('button', { name: /^Approve contacts\.create/ }).click();
    const dialog = page.getByRole('dialog', { name: 'Approve this action?' });
    await dialog.waitFor();
    // Meanwhile the API rejects it.
    expect((await h.api('agents/command_reject/', { body: { run_id: runId } })).status).toBe(200);
    await dialog.getByRole('button', { name: 'Approve', exact: true }).click();
    const alert = page.getByRole('alert').filter({ hasText: 'Already answered elsewhere' });
    await alert.waitFor();
    expect(await alert.textContent()).toContain('APPROVAL_NOT_PENDING');
    await card.waitFor({ state: 'detached' });
    await runIn(runId, 'completed');
    expect(await contactsNamed(h.api, 'Late Larry')).toBe(0);
    await screenshot(page, 'approvals-answered-elsewhere');
  });

  it('is approved from the Runs screen too: the run there moves on to completed', async () => {
    const runId = await confirmRun('Runs Ruth');
    await go(`#/agents/${h.agentId}/runs`, /^Runs$/);
    const run = page.locator('.run', { hasText: 'Runs Ruth' }).first();
    await run.getByRole('button', { name: /^Approve contacts\.create/ }).click();
    await page.getByRole('dialog', { name: 'Approve this action?' }).getByRole('button', { name: 'Approve', exact: true }).click();
    await run.and(page.locator('[data-status=completed]')).waitFor({ timeout: 20_000 });
    expect(await run.locator('.waiting-action').count()).toBe(0);
    expect((await statusOf(runId)).status).toBe('completed');
    expect(await contactsNamed(h.api, 'Runs Ruth')).toBe(1);
  });

  it('is stopped from the Runs screen after confirming: it ends cancelled and never acts', async () => {
    const runId = await confirmRun('Stopped Sam');
    await go(`#/agents/${h.agentId}/runs`, /^Runs$/);
    const run = page.locator('.run', { hasText: 'Stopped Sam' }).first();
    await run.getByRole('button', { name: /^Stop the run/ }).click();
    await page.getByRole('dialog', { name: 'Stop this run?' }).getByRole('button', { name: 'Stop the run', exact: true }).click();
    await run.and(page.locator('[data-status=cancelled]')).waitFor();
    expect(await run.getByRole('button', { name: /^Approve/ }).count()).toBe(0);
    expect((await statusOf(runId)).status).toBe('cancelled');
    expect(await contactsNamed(h.api, 'Stopped Sam')).toBe(0);
    await go('#/approvals', /^Waiting for you$/);
    await page.getByText('Nothing is waiting for you.').waitFor();
  });

  it('ran without a page error or a Content-Security-Policy violation', () => {
    expect(errors).toEqual([]);
  });
});
