import { signal } from '@preact/signals';

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
  credentials: () => import('./screens/credentials'),
  webhooks: () => import('./screens/webhooks'),
  mcp: () => import('./screens/mcp'),
  roles: () => import('./screens/roles'),
  usage: () => import('./screens/usage'),
  members: () => import('./screens/members'),
  account: () => import('./screens/account'),
};
export type ScreenName = keyof typeof SCREENS;

export function parseRoute(hash: string): Route {
  const parts = hash.replace(/^#\/?/, '').split('/').filter(Boolean).map(decodeURIComponent);
  const [first = 'agents', ...rest] = parts;
  if (first === 'agents' && rest.length >= 2 && ['settings', 'embed', 'runs', 'conversations'].includes(rest[1]!)) {
    return { screen: rest[1] as ScreenName, params: [rest[0]!, ...rest.slice(2)] };
  }
  if (first === 'developers' || first === 'company') return parseRoute(`#/${rest.join('/')}`);
  return first in SCREENS ? { screen: first as ScreenName, params: rest } : { screen: 'agents', params: [] };
}

/** The route of the page's hash, kept current by `hashchange`. */
export const route = signal(parseRoute(location.hash));
addEventListener('hashchange', () => (route.value = parseRoute(location.hash)));

/** Replaces the page's URL; the route follows it (history.replaceState fires no `hashchange`). */
export function replaceUrl(url: string): void {
  history.replaceState(null, '', url);
  route.value = parseRoute(location.hash);
}
