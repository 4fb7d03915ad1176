/**
 * What a Lambda bundle gets for `import { LRUCache } from 'lru-cache'` (LAMBDA_BUNDLING aliases it here): the part of
 * lru-cache the platform uses (a cache of `max` entries, least recently used evicted first; a default `ttl` and one per
 * `set`; `get`, `set`, `delete`), on a Map, about 1 KB where lru-cache weighs 18 KB in every bundle (its fetch, memo,
 * size, dispose and autopurge machinery, which nothing here uses). cdk/test/bundle-stand-ins.test.ts drives both with
 * the same random operations and clock and checks every answer, and that no bundled module asks for more.
 *
 * The trade: any other option fails at construction with the reason, in a bundle only; expiry is read from the clock
 * on every check, where lru-cache may reuse a reading for up to a millisecond (`ttlResolution`); and lru-cache's
 * diagnostics channel events (for a subscriber, of which the platform has none) are not published.
 */
interface Clock {
  now(): number;
}

interface Options {
  max: number;
  ttl?: number;
  /** lru-cache's own options for a clock and its resolution, for the equivalence test: same meaning (resolution 0). */
  perf?: Clock;
  ttlResolution?: 0;
}

interface Entry<V> {
  value: V;
  ttl: number;
  start: number;
}

const SUPPORTED = new Set(['max', 'ttl', 'perf', 'ttlResolution']);
const isPositiveInteger = (n: unknown): n is number => typeof n === 'number' && Number.isInteger(n) && n > 0;

export class LRUCache<K, V> {
  readonly max: number;
  readonly ttl: number;
  readonly #clock: Clock;
  /** In recency order: the first entry is the least recently used. */
  readonly #entries = new Map<K, Entry<V>>();

  constructor(options: Options) {
    const unsupported = Object.keys(options).filter((name) => !SUPPORTED.has(name));
    if (unsupported.length) throw new TypeError(`lru-cache option ${unsupported.join(', ')} is not part of this Lambda bundle (cdk/lib/bundling/lru-cache-map.ts)`);
    if (!isPositiveInteger(options.max)) throw new TypeError('max option must be a nonnegative integer');
    if (options.ttl !== undefined && !isPositiveInteger(options.ttl)) throw new TypeError('ttl option must be a positive integer if specified');
    this.max = options.max;
    this.ttl = options.ttl ?? 0;
    this.#clock = options.perf ?? performance;
  }

  get size(): number {
    return this.#entries.size;
  }

  get(key: K): V | undefined {
    const entry = this.#entries.get(key);
    if (!entry) return undefined;
    this.#entries.delete(key);
    if (entry.ttl && entry.start && this.#clock.now() - entry.start > entry.ttl) return undefined;
    this.#entries.set(key, entry);
    return entry.value;
  }

  set(key: K, value: V | undefined, options: { ttl?: number } = {}): this {
    if (value === undefined) {
      this.delete(key);
      return this;
    }
    const ttl = options.ttl ?? this.ttl;
    const known = this.#entries.delete(key);
    if (!known && this.#entries.size === this.max) this.#entries.delete(this.#entries.keys().next().value as K);
    this.#entries.set(key, { value, ttl, start: ttl !== 0 ? this.#clock.now() : 0 });
    return this;
  }

  delete(key: K): boolean {
    return this.#entries.delete(key);
  }
}
