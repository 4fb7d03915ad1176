// The widget's event bus, all of it: the event contract of the spec (inbound commands, site -> widget, and outbound
// events, widget -> site), the bus (createBus, adoptBus), the page's singleton (getBus) and the ChatEventBus export.

export type Locale = 'en' | 'tr';
export type UiActionName = 'pointer' | 'highlight' | 'scroll';

export interface UiActionRequest {
  action: UiActionName;
  target: string;
}

export interface InboundEvents {
  open: undefined;
  close: undefined;
  toggle: undefined;
  send: { text: string; openFirst?: boolean };
  botMessage: { text: string; openFirst?: boolean };
  system: { prompt: string };
  clear: undefined;
  setContext: Record<string, unknown>;
  setLocale: { locale: Locale };
  highlight: { duration?: number } | undefined;
  badge: { count: number | null };
  nudge: { text: string; duration?: number };
  uiAction: UiActionRequest;
  /** A signed-in visitor, as the host's server signed them: a JWT `userToken` (it expires), or the older `userId` + `userHash` (hex HMAC-SHA256). */
  identify: VisitorIdentity;
  /** Ask for a person (as the visitor's "Talk to a person" does): `text` goes to the team, or a default request. */
  handoff: HandoffRequest | undefined;
}

export interface HandoffRequest {
  text?: string;
}

/** Who answers the conversation now (the outbound `handoff`): people (`assignee` their name, or null while it waits), the agent again, or nobody. */
export interface HandoffState {
  handler: 'agent' | 'people' | 'closed';
  assignee: string | null;
}

export type VisitorIdentity = { userToken: string } | { userId: string; userHash: string };

export type MarkerType = 'Skill' | 'Agent' | 'Page' | 'Link' | 'Action';

/** One parsed `[Type:label|value|extra]` marker, as carried by the botResponse event. */
export interface Marker {
  type: MarkerType;
  label: string;
  value: string;
  extra?: string;
  raw: string;
}

export interface OutboundEvents {
  navigate: { href: string };
  uiAction: UiActionRequest;
  widgetOpened: undefined;
  widgetClosed: undefined;
  userMessage: { text: string };
  botResponse: { raw: string; markers: Marker[] };
  /**
   * A host `send` or `botMessage` arrived while a reply streams: it waits and goes once the reply ends or is stopped
   * (`accepted`), or was not kept because `waiting` (5) messages already wait (a console warning says so too).
   */
  queued: { kind: 'send' | 'botMessage'; text: string; accepted: boolean; waiting: number };
  /** The conversation changed hands: a person was asked for, joined, handed it back to the agent, or closed it. */
  handoff: HandoffState;
}

/** `handoff` goes both ways: a host's request comes in, the change of hands goes out (the widget tells them apart). */
export type ChatEvents = Omit<InboundEvents & OutboundEvents, 'handoff'> & { handoff: InboundEvents['handoff'] | OutboundEvents['handoff'] };
export type ChatEventName = keyof ChatEvents;
export type InboundEventName = keyof InboundEvents;
export type OutboundEventName = keyof OutboundEvents;

export const INBOUND_EVENTS: readonly InboundEventName[] = [
  'open',
  'close',
  'toggle',
  'send',
  'botMessage',
  'system',
  'clear',
  'setContext',
  'setLocale',
  'highlight',
  'badge',
  'nudge',
  'uiAction',
  'identify',
  'handoff',
];

// The bus.

const isInbound = (name: ChatEventName): name is InboundEventName => (INBOUND_EVENTS as readonly string[]).includes(name);

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
  /**
   * Called once by the widget: hands `replay` the inbound commands emitted before it was ready, in order. Until then
   * the bus keeps them for it; their listeners (a ChatPointerOverlay, a host's own) have had them at once.
   */
  markReady(replay: (name: InboundEventName, payload: unknown) => void): void;
  /** Set by whoever mounts the widget, so a second loader or adapter does not mount it twice. */
  mounted?: boolean;
}

// Commands kept for a widget not ready yet; a cap so a page without a widget (an overlay alone) cannot grow it forever.
const QUEUE_LIMIT = 100;

export function createBus(): ChatBus {
  const handlers = new Map<ChatEventName, Set<(payload: unknown) => void>>();
  let queue: [InboundEventName, unknown][] | null = [];
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
      // Every listener hears an event at once (an overlay or a rich renderer works without the widget); the widget
      // that is still on its way gets the inbound ones when it is ready.
      if (queue && queue.length < QUEUE_LIMIT && isInbound(name)) queue.push([name, payload]);
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
    markReady(replay) {
      const pending = queue ?? [];
      queue = null;
      for (const [name, payload] of pending) {
        if (logging) console.debug('[service-chat] replayed to the widget:', name, payload);
        replay(name, payload);
      }
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

// The page's singleton.

declare global {
  interface Window {
    /** The bus; before the widget loads a page may have put a queue stub here (see adoptBus). */
    __service_chat?: ChatBus;
  }
}

let serverBus: ChatBus | undefined;

/** The page's bus singleton `window.__service_chat`, created on first use. Safe to call during SSR. */
export function getBus(): ChatBus {
  if (typeof window === 'undefined') return (serverBus ??= createBus());
  return (window.__service_chat = adoptBus(window.__service_chat));
}

/** The spec's ChatEventBus export: the page's singleton, reached lazily so importing it is SSR-safe. */
export const ChatEventBus: ChatBus = {
  emit: (name, payload) => getBus().emit(name, payload),
  on: (name, handler) => getBus().on(name, handler),
  debug: (enabled) => getBus().debug(enabled),
  get listenerCount() {
    return getBus().listenerCount;
  },
  hasListeners: (name) => getBus().hasListeners(name),
  markReady: (replay) => getBus().markReady(replay),
  get mounted() {
    return getBus().mounted;
  },
  set mounted(value) {
    getBus().mounted = value;
  },
};
