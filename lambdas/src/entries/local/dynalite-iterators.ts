import { createRequire } from 'node:module';

interface ClosableIterator {
  close(): Promise<void>;
  return?: () => Promise<void>;
}

type IteratorClass = { prototype: ClosableIterator };

interface AbstractLevelModule {
  AbstractLevel: { prototype: { attachResource(resource: object): void; detachResource(resource: object): void } };
  AbstractIterator: IteratorClass;
  AbstractKeyIterator: IteratorClass;
  AbstractValueIterator: IteratorClass;
}

/** The abstract-level copies dynalite's two stores (LevelDB on disk, memory-level in memory) are built on. */
export function abstractLevelsOfDynalite(): AbstractLevelModule[] {
  const fromDynalite = createRequire(createRequire(import.meta.url).resolve('dynalite'));
  const fromLevel = createRequire(fromDynalite.resolve('level'));
  const stores = [fromLevel.resolve('classic-level'), fromDynalite.resolve('memory-level')];
  const modules = new Set(stores.map((store) => createRequire(store)('abstract-level') as AbstractLevelModule));
  return [...modules];
}

/**
 * dynalite ends the store iterator behind each Query and Scan by calling `iterator.return()` (the async-iterator
 * protocol's name), but abstract-level's iterators are freed by `close()` alone and have no `return()`. Without it
 * every Query and Scan leaves its iterator open, with the LevelDB snapshot and memtables it pins: native memory that
 * grows with every request and every poll of the local queue. With `return()` as `close()`, dynalite's own clean-up
 * reaches them. Idempotent; a `return()` a later release of either library provides is kept.
 */
export function letDynaliteCloseItsIterators(): void {
  for (const level of abstractLevelsOfDynalite()) {
    for (const iterator of [level.AbstractIterator, level.AbstractKeyIterator, level.AbstractValueIterator]) {
      iterator.prototype.return ??= function (this: ClosableIterator) {
        return this.close();
      };
    }
  }
}
