import { signal } from '@preact/signals';
import { isAgentId, isAgentScreen, type AgentScreen } from './agent-screens';

/** Hash routes (`#/agents/<id>/settings`): the dashboard is static files, so every screen is one index.html. */
export interface Route {
  screen: ScreenName;
  params: string[];
}

export const SCREENS = {
  agents: () => import('./screens/agents'),
  approvals: () => import('./screens/approvals'),
  knowledge: () => import('./screens/knowledge'),
  settings: () => import('./screens/agent-settings'),
  embed: () => import('./screens/agent-embed'),
  runs: () => import('./screens/runs'),
  conversations: () => import('./screens/conversations'),
  evals: () => import('./screens/evals'),
  insights: () => import('./screens/insights'),
  credentials: () => import('./screens/credentials'),
  webhooks: () => import('./screens/webhooks'),
  mcp: () => import('./screens/mcp'),
  traces: () => import('./screens/traces'),
  roles: () => import('./screens/roles'),
  audit: () => import('./screens/audit'),
  usage: () => import('./screens/usage'),
  members: () => import('./screens/members'),
  account: () => import('./screens/account'),
};
export type ScreenName = keyof typeof SCREENS;

export function parseRoute(hash: string): Route {
  const parts = hash.replace(/^#\/?/, '').split('/').filter(Boolean).map(decodeURIComponent);
  const [first = 'agents', ...rest] = parts;
  if (first === 'developers' || first === 'company') return parseRoute(`#/${rest.join('/')}`);
  if (first === 'agents') return agentRoute(rest);
  // An agent's screen without the agent (`#/conversations`: a hand-typed link, an old bookmark).
  if (isAgentScreen(first)) return pickAgentFor(first);
  return first in SCREENS ? { screen: first as ScreenName, params: rest } : { screen: 'agents', params: [] };
}

/**
 * `#/agents/<id>/<screen>/…` opens that agent's screen. An address that names no agent (`#/agents/runs`, a malformed
 * id) opens the agents list, which asks for the agent, instead of a screen that could only show the API's refusal.
 */
function agentRoute([agentId, screen, ...more]: string[]): Route {
  if (isAgentScreen(screen)) return isAgentId(agentId) ? { screen, params: [agentId, ...more] } : pickAgentFor(screen);
  if (isAgentScreen(agentId)) return pickAgentFor(agentId);
  return { screen: 'agents', params: [] };
}

/** The agents list, asked to say which agent's `screen` the address wanted (its first parameter). */
const pickAgentFor = (screen: AgentScreen): Route => ({ screen: 'agents', params: [screen] });

/** The route of the page's hash, kept current by `hashchange`. */
export const route = signal(parseRoute(location.hash));
addEventListener('hashchange', () => (route.value = parseRoute(location.hash)));

/** Replaces the page's URL; the route follows it (history.replaceState fires no `hashchange`). */
export function replaceUrl(url: string): void {
  history.replaceState(null, '', url);
  route.value = parseRoute(location.hash);
}
