import { INBOUND_EVENTS } from './events';
import type { ChatEventName, ChatEvents } from './events';

export type ChatEventHandler<N extends ChatEventName> = (payload: ChatEvents[N]) => void;

export interface ChatBus {
  emit<N extends ChatEventName>(name: N, payload?: ChatEvents[N]): void;
  /** Subscribe; returns the unsubscribe function. */
  on<N extends ChatEventName>(name: N, handler: ChatEventHandler<N>): () => void;
  /** Log every event to the console while true. */
  debug(enabled: boolean): void;
  /** Number of handlers currently subscribed, over all events. */
  readonly listenerCount: number;
  /** Whether any handler listens to this event (the widget uses it to decide whether to navigate itself). */
  hasListeners(name: ChatEventName): boolean;
  /** Called once by the widget after it subscribed: replays the inbound commands queued before it was ready. */
  markReady(): void;
  /** Set by whoever mounts the widget, so a second loader or adapter does not mount it twice. */
  mounted?: boolean;
}

// Commands queued before the widget is ready; a cap so a page whose widget never loads cannot grow it forever.
const QUEUE_LIMIT = 100;

export function createBus(): ChatBus {
  const handlers = new Map<ChatEventName, Set<(payload: unknown) => void>>();
  let queue: [ChatEventName, unknown][] | null = [];
  let logging = false;

  const dispatch = (name: ChatEventName, payload: unknown): void => {
    if (logging) console.debug('[service-chat]', name, payload);
    for (const handler of [...(handlers.get(name) ?? [])]) {
      try {
        handler(payload);
      } catch (error) {
        // One failing listener must not stop the others, nor the widget.
        console.error('[service-chat] listener for', name, 'failed:', error);
      }
    }
  };

  return {
    emit(name, payload) {
      if (queue && (INBOUND_EVENTS as readonly string[]).includes(name)) {
        if (queue.length < QUEUE_LIMIT) queue.push([name, payload]);
        return;
      }
      dispatch(name, payload);
    },
    on(name, handler) {
      const set = handlers.get(name) ?? new Set();
      handlers.set(name, set);
      const wrapped = handler as (payload: unknown) => void;
      set.add(wrapped);
      return () => {
        set.delete(wrapped);
      };
    },
    debug(enabled) {
      logging = enabled;
    },
    get listenerCount() {
      let count = 0;
      for (const set of handlers.values()) count += set.size;
      return count;
    },
    hasListeners(name) {
      return (handlers.get(name)?.size ?? 0) > 0;
    },
    markReady() {
      const pending = queue ?? [];
      queue = null;
      for (const [name, payload] of pending) dispatch(name, payload);
    },
  };
}

const isBus = (value: unknown): value is ChatBus =>
  typeof value === 'object' && value !== null && ['emit', 'on', 'markReady'].every((name) => typeof (value as Record<string, unknown>)[name] === 'function');

/** The calls a queue stub recorded: the stub itself as an array, or its `q` array; each entry an argument list. */
function stubCalls(stub: unknown): unknown[][] {
  const queue = Array.isArray(stub) ? stub : (stub as { q?: unknown } | null | undefined)?.q;
  return Array.isArray(queue) ? queue.slice(0, QUEUE_LIMIT).map((entry) => Array.from(entry as ArrayLike<unknown>)) : [];
}

/**
 * The page's bus: the existing one if `window.__service_chat` is already ours, else a new one that takes over a
 * queue stub the page defined first (`{ q: [["open"], ["send", {...}], ["on", "navigate", fn]] }`, or an array of
 * such calls) and replays its calls in order.
 */
export function adoptBus(existing: unknown): ChatBus {
  if (isBus(existing)) return existing;
  const bus = createBus();
  for (const [name, first, second] of stubCalls(existing)) {
    if (name === 'on' && typeof first === 'string' && typeof second === 'function') bus.on(first as ChatEventName, second as ChatEventHandler<ChatEventName>);
    else if (typeof name === 'string') bus.emit(name as ChatEventName, first as never);
  }
  return bus;
}
