import type { Deps } from '../deps';

/**
 * A per-container memo for reads that change rarely and are needed on every request (a workspace's plan, an agent's
 * existence, the month's token use). Entries live `ttlMs`; one cache per store, so two platforms in one process never share.
 * Never use it for anything that must take effect at once (API keys are always read fresh).
 */
type Entry = { value: unknown; until: number };
const caches = new WeakMap<object, Map<string, Entry>>();

export async function cached<T>(deps: Deps, key: string, ttlMs: number, load: () => Promise<T>): Promise<T> {
  let cache = caches.get(deps.store);
  if (!cache) caches.set(deps.store, (cache = new Map()));
  const hit = cache.get(key);
  if (hit && hit.until > Date.now()) return hit.value as T;
  const value = await load();
  if (value !== undefined) cache.set(key, { value, until: Date.now() + ttlMs });
  return value;
}
