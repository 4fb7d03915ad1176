import type { Deps } from '../deps';
import { getWorkspace, type Workspace } from './workspaces';

/**
 * Workspaces change rarely (a plan upgrade), and every API request needs its plan: keep each one for a short while
 * per container instead of reading it on every request. Keys are NOT cached, so a revoked key fails at once.
 */
const TTL_MS = 30_000;
type Entry = { workspace: Workspace; until: number };
/** One cache per store, so two local platforms in one process never share entries. */
const caches = new WeakMap<object, Map<string, Entry>>();

export async function getWorkspaceCached(deps: Deps, id: string): Promise<Workspace | undefined> {
  let cache = caches.get(deps.store);
  if (!cache) caches.set(deps.store, (cache = new Map()));
  const hit = cache.get(id);
  if (hit && hit.until > Date.now()) return hit.workspace;
  const workspace = await getWorkspace(deps, id);
  if (workspace) cache.set(id, { workspace, until: Date.now() + TTL_MS });
  return workspace;
}
