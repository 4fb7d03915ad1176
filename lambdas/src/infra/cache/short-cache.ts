import { LRUCache } from 'lru-cache';
import type { Deps } from '../deps';

/**
 * A per-container memo for reads that change rarely and are needed on every request (a workspace's plan, an agent's
 * identity). Entries live `ttlMs`, at most MAX_ENTRIES per store (least recently used go first), so a warm container
 * serving many workspaces never grows without bound; one cache per store, so two platforms in one process never share.
 * Never use it for anything that must take effect at once (API keys and rate limits are always read fresh).
 */
const MAX_ENTRIES = 5_000;
const caches = new WeakMap<object, LRUCache<string, { value: unknown }>>();

export async function cached<T>(deps: Deps, key: string, ttlMs: number, load: () => Promise<T>): Promise<T> {
  let cache = caches.get(deps.store);
  if (!cache) caches.set(deps.store, (cache = new LRUCache({ max: MAX_ENTRIES })));
  const hit = cache.get(key);
  if (hit) return hit.value as T;
  const value = await load();
  if (value !== undefined) cache.set(key, { value }, { ttl: ttlMs });
  return value;
}

/** Drops an entry of this store's cache (a write this container made that its next read must see). */
export function forget(deps: Deps, key: string): void {
  caches.get(deps.store)?.delete(key);
}
