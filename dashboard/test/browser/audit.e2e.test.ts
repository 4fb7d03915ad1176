import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations, downloaded, heading, screenshot, signedInPage, startDashboard, type DashboardHarness } from './support';

// The audit log screen (issue 39 item 1): an owner finds a change by its filters, reads its diff, and exports what the
// filters show as CSV and JSON. Its own platform and browser.

let h: DashboardHarness;
beforeAll(async () => void (h = await startDashboard()), 60_000);
afterAll(() => h?.stop());

describe('the audit log screen', () => {
  it('filters by action, shows the persona before and after, exports CSV and JSON; axe clean, light and dark, 375 px', async () => {
    const { page } = await signedInPage(h);
    // The change is made with a key whose name looks like a spreadsheet formula.
    const key = await h.api<{ secret: string }>('keys/create', { body: { name: '=SUM(1,1) key' } });
    const persona = `You are terse ${crypto.randomUUID()}`;
    expect((await h.api('agents/update', { body: { agent_id: h.agentId, persona }, key: key.body.data.secret })).status).toBe(200);

    await page.evaluate(() => (location.hash = '#/company/audit'));
    await heading(page, /Company › Audit log/);
    await page.getByLabel('Action').fill('agent.updated');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    const table = page.getByRole('group', { name: 'Audit entries' });
    const row = table.getByRole('row').filter({ hasText: 'agent.updated' });
    await row.first().waitFor();
    expect(await row.count()).toBe(1);
    expect(await row.textContent()).toContain('=SUM(1,1) key (api key)');
    await row.getByText(/\d+ fields?/).click();
    const change = row.getByRole('table', { name: 'What changed' });
    await change.getByRole('row').filter({ hasText: 'persona' }).waitFor();
    expect(await change.getByRole('row').filter({ hasText: 'persona' }).locator('.diff-after').textContent()).toBe(persona);
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'audit-log-light');

    const csv = await downloaded(page, () => page.getByRole('button', { name: 'Export CSV' }).click());
    expect(csv.name).toMatch(/^audit-.*\.csv$/);
    const lines = csv.text.trim().split('\r\n');
    expect(lines[0]).toBe('time,actor_type,actor_id,actor_name,action,target_type,target_id,target_name,source_ip,user_agent,before,after');
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain('"agent.updated"');
    // A cell an actor typed can never be a formula in a spreadsheet.
    expect(lines[1]).toContain(`"'=SUM(1,1) key"`);
    const json = await downloaded(page, () => page.getByRole('button', { name: 'Export JSON' }).click());
    const entries = JSON.parse(json.text) as { action: string; after: { persona: string } }[];
    expect(entries.map((entry) => [entry.action, entry.after.persona])).toEqual([['agent.updated', persona]]);

    await page.setViewportSize({ width: 375, height: 740 });
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.waitForFunction(() => matchMedia('(prefers-color-scheme: dark)').matches);
    expect(await axeViolations(page)).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await screenshot(page, 'audit-log-375-dark');
  });
});
