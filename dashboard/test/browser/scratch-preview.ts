// Scratch (not committed): every screen with the API key standing in for a session, to look at before sign-in exists.
import { startDashboard, screenshot, axeViolations } from './support';
const h = await startDashboard();
const key = (h.api as unknown as { key?: string }).key;
const { page, context } = await h.open('/dashboard/', { viewport: { width: 1280, height: 860 } });
const demoKey = process.env.KEY;
await page.route('**/en/api/v1/**', async (route) => {
  const url = new URL(route.request().url());
  if (url.pathname.includes('auth/session')) return route.fulfill({ contentType: 'application/json', body: JSON.stringify({ status: true, code: 200, data: { user: { id: 'usr_1', email: 'owner@demo.example', display_name: 'Owner' }, workspaces: [{ id: h.platform.demo.workspaceId, name: 'Demo', role: process.env.ROLE ?? 'owner' }, { id: '00000000-0000-4000-8000-000000000000', name: 'Other', role: 'member' }], csrf_token: 'x' } }) });
  const headers = { ...route.request().headers(), 'x-service-api-key': h.key };
  return route.continue({ headers });
});
void key; void demoKey;
await page.goto(`${h.origin}/dashboard/#/agents`);
await page.reload();
await page.waitForTimeout(500);
const screens = ['#/agents', `#/agents/${h.agentId}/settings`, `#/agents/${h.agentId}/embed`, `#/agents/${h.agentId}/runs`, `#/agents/${h.agentId}/conversations`, '#/developers/credentials', '#/developers/webhooks', '#/developers/mcp', '#/company/roles', '#/usage', '#/members', '#/account'];
for (const [index, hash] of screens.entries()) {
  for (const [scheme, width] of [['light', 1280], ['dark', 375]] as const) {
    await page.setViewportSize({ width, height: 860 });
    await page.emulateMedia({ colorScheme: scheme });
    await page.evaluate((target) => (location.hash = target), hash);
    await page.waitForTimeout(700);
    await page.screenshot({ path: `/tmp/h12d/${index}-${hash.split('/').pop()}-${scheme}.png`, fullPage: true });
    const v = await axeViolations(page);
    if (v.length) console.log(hash, scheme, JSON.stringify(v));
    console.log(hash, scheme, await page.evaluate(() => document.documentElement.scrollWidth));
  }
}
void screenshot;
await context.close();
await h.stop();
