/** A value the widget's view reads; setting a different value tells the view to render again. */
export interface Signal<T> {
  value: T;
}

/**
 * The widget's reactive state in a few lines (instead of a signals library): signals, derived values read fresh on
 * each access, batched updates, and one subscription for the view, which renders the whole (small) tree on change.
 */
export function createState() {
  const listeners = new Set<() => void>();
  let depth = 0;
  let pending = false;
  const notify = () => {
    if (depth > 0) pending = true;
    else listeners.forEach((listener) => listener());
  };
  return {
    signal<T>(initial: T): Signal<T> {
      let current = initial;
      return {
        get value() {
          return current;
        },
        set value(next) {
          if (Object.is(next, current)) return;
          current = next;
          notify();
        },
      };
    },
    computed: <T>(derive: () => T): { readonly value: T } => ({
      get value() {
        return derive();
      },
    }),
    batch(change: () => void): void {
      depth++;
      try {
        change();
      } finally {
        depth--;
        if (depth === 0 && pending) {
          pending = false;
          notify();
        }
      }
    },
    subscribe(listener: () => void): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
