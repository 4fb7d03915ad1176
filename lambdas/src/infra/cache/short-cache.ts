import { LRUCache } from 'lru-cache';
import type { Deps } from '../deps';

/**
 * A per-container memo for reads that change rarely and are needed on every request (a workspace's plan, an agent's
 * identity). Entries live `ttlMs`, at most MAX_ENTRIES per store (least recently used go first), so a warm container
 * serving many workspaces never grows without bound; one cache per store, so two platforms in one process never share.
 * Never use it for anything that must take effect at once; an API key's last check is kept here only with the age
 * that bounds what it may vouch for (key-admission.ts).
 */
const MAX_ENTRIES = 5_000;

/** One LRU cache of at most `max` entries per store, made on first use: two platforms in one process never share. */
export function lruPerStore<V extends NonNullable<unknown>>(max: number): (deps: Deps) => LRUCache<string, V> {
  const caches = new WeakMap<object, LRUCache<string, V>>();
  return (deps) => {
    let cache = caches.get(deps.store);
    if (!cache) caches.set(deps.store, (cache = new LRUCache<string, V>({ max })));
    return cache;
  };
}

const cacheOf = lruPerStore<{ value: unknown }>(MAX_ENTRIES);

/** The value kept under `key`, if it has not expired. */
export const recall = <T>(deps: Deps, key: string): T | undefined => cacheOf(deps).get(key)?.value as T | undefined;

/** Keeps `value` under `key` for `ttlMs`. */
export function remember(deps: Deps, key: string, value: unknown, ttlMs: number): void {
  cacheOf(deps).set(key, { value }, { ttl: ttlMs });
}

export async function cached<T>(deps: Deps, key: string, ttlMs: number, load: () => Promise<T>): Promise<T> {
  const hit = cacheOf(deps).get(key);
  if (hit) return hit.value as T;
  const value = await load();
  if (value !== undefined) remember(deps, key, value, ttlMs);
  return value;
}

/** Drops an entry of this store's cache (a write this container made that its next read must see). */
export function forget(deps: Deps, key: string): void {
  cacheOf(deps).delete(key);
}
