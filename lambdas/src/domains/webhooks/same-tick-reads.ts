import DataLoader from 'dataloader';
import type { Deps } from '../../infra/deps';
import type { Store } from '../../infra/store/dynamo';

/**
 * One read per key for all the callers of one turn of the event loop (events emitted at once read the same
 * workspace's subscriptions and skills). Not a cache: the read starts after every caller asked, so none sees older data
 * than a read of its own would. `read` may use only the store of the deps it is given (those of the turn's first caller).
 */
export function sameTickReads<V>(read: (deps: Deps, key: string) => Promise<V>): (deps: Deps, key: string) => Promise<V> {
  const loaders = new WeakMap<Store, DataLoader<string, V>>();
  return (deps, key) => {
    let loader = loaders.get(deps.store);
    if (!loader) {
      loader = new DataLoader<string, V>(
        async (keys) => {
          const reads = new Map(
            [...new Set(keys)].map((unique) => [
              unique,
              read(deps, unique).catch((error: unknown) => (error instanceof Error ? error : new Error(String(error)))),
            ]),
          );
          return Promise.all(keys.map((asked) => reads.get(asked)!));
        },
        { cache: false, batchScheduleFn: (run) => setImmediate(run) },
      );
      loaders.set(deps.store, loader);
    }
    return loader.load(key);
  };
}
