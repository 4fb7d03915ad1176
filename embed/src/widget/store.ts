import { CHAT_LIMITS } from '@service/shared/widget-protocol';
import type { ChatDecision, ChatStreamEvents, RatingValue } from '@service/shared/widget-protocol';
import type { ConfirmCard } from './confirm-card';
import type { EmailForm as EmailFormComponent } from './email-form';
import { applyOverrides, DEFAULT_CONFIG, loadWidgetConfig } from '../core/config';
import { isLocale, resolveLocale, translate } from '../core/locale';
import { session } from '../core/storage';
import { batch, computed, effect, signal } from '@preact/signals';
import type { ChatBus } from '../core/event-bus';
import type { ChatRequest } from '../core/chat-client';
import type * as Reply from './reply';
import type * as Live from './live';
import type { HandoffState } from '../core/event-bus';
import type * as Rich from './rich-text';
import type { ConfigOverrides, WidgetConfig } from '../core/config';
import type { InboundEvents, Locale, Marker, UiActionRequest } from '../core/event-bus';
import type { StringKey } from '../core/locale';

export interface ChatMessage {
  id: string;
  /** The visitor, the agent, a teammate (people answer: `author` is their name), or a change of hands ("Ana joined"). */
  role: 'user' | 'bot' | 'teammate' | 'event';
  text: string;
  author?: string;
  done: boolean;
  error?: boolean;
  /** A reply the visitor stopped: `text` is what was written until then. */
  stopped?: boolean;
  /** When it was written (ms since the epoch), shown on hover. */
  at?: number;
  /** A page the model asked to open that needs the visitor's click (off-site or destructive-looking). */
  offer?: Marker;
  /** An action waiting for the visitor's Confirm or Decline (the text is its summary). */
  confirm?: ChatStreamEvents['confirm'];
  /** The agent's answer as the server stored it (the `done` event's messageId): what the visitor may rate. */
  answerId?: string;
  /** The visitor's rating of this answer, once sent. */
  rating?: RatingValue;
}

export interface StoreOptions {
  bus: ChatBus;
  agentId: string;
  apiUrl: string;
  config?: ConfigOverrides;
  /** The FAB is already on screen (the loader painted it): show the widget's own at once. */
  fabShown?: boolean;
  /** Runs a UI action (the overlay); omitted when a separate ChatPointerOverlay handles them. */
  runUiAction?: (request: UiActionRequest) => void;
  /** The fetch the widget calls its API with (default: the page's at creation); see MountOptions.fetch. */
  fetch?: typeof fetch;
  /** Loads the rich text chunk (and adopts its styles): bot messages need it, opening the panel does not. */
  loadRich: () => Promise<typeof Rich>;
  /** Loads the live chunk (and adopts its styles): people's messages need it, opening the panel does not. */
  loadLive: () => Promise<typeof Live>;
}

/** A host message waiting for the reply on screen to end. */
interface Waiting {
  kind: 'send' | 'botMessage';
  text: string;
}

interface Persisted {
  conversationId: string;
  visitorId: string;
  messages: ChatMessage[];
  system: string[];
  data: Record<string, unknown>;
  open: boolean;
  teaserSeen: boolean;
  /** Once people were asked for: the last live entry shown (the live stream resumes after it). */
  liveAfter?: number;
}

// Bounds on what a host page or visitor can push into the conversation: the chat endpoint's own limits.
const MAX_MESSAGE = CHAT_LIMITS.messageChars;
const MAX_HISTORY = CHAT_LIMITS.messages;
const MAX_SYSTEM = CHAT_LIMITS.systemPrompts;
const MAX_CONTEXT_JSON = CHAT_LIMITS.contextJsonChars;
// Host `send` and `botMessage` commands that arrive while a reply streams wait their turn, up to this many.
const MAX_WAITING = 5;
const FAB_HIGHLIGHT_MS = 3000;
const NUDGE_MS = 6000;

const newId = () => crypto.randomUUID();

// The chat client and the reply's page effects are their own chunk: opening the panel does not need it; the visitor's
// first keystroke starts loading it, and the first send waits for it.
let replyModule: Promise<typeof Reply> | undefined;
const loadReply = () => (replyModule ??= import('./reply'));
const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

export type WidgetStore = ReturnType<typeof createStore>;

/** The agent's face, as the avatar's views name them (`avatar.svg#thinking`). */
export type Expression = 'idle' | 'thinking' | 'talking';

export function createStore(options: StoreOptions) {
  const { bus, agentId, apiUrl } = options;
  const fetchApi = options.fetch ?? fetch.bind(globalThis);
  const overrides = options.config ?? {};
  const storageKey = `service-chat:conversation:${agentId}`;
  const restored = session.read<Persisted>(storageKey);
  const config = signal<WidgetConfig>(applyOverrides(DEFAULT_CONFIG, overrides));
  const loading = signal(true);
  const open = signal(restored?.open === true);
  const messages = signal<ChatMessage[]>(Array.isArray(restored?.messages) ? restored.messages.filter((m) => m.done) : []);
  const streaming = signal(false);
  const badge = signal<number | null>(null);
  const fabVisible = signal(options.fabShown === true);
  const fabHighlight = signal(false);
  const teaserVisible = signal(false);
  const nudgeText = signal<string | null>(null);
  const announcement = signal('');
  const explicitLocale = signal<Locale | null>(null);
  /** A `dark` class on an ancestor of the host (mount watches it). */
  const dark = signal(false);
  /** Thinking from a send until the reply's first text, talking while the reply streams, idle otherwise. */
  const expression = computed<Expression>(() => {
    if (!streaming.value) return 'idle';
    const last = messages.value.at(-1);
    return last?.role === 'bot' && !last.done && !last.text ? 'thinking' : 'talking';
  });
  /** The rich text chunk, once loaded (bot messages render with it). */
  const rich = signal<typeof Rich | null>(null);
  let richLoading: Promise<typeof Rich> | undefined;
  const loadRich = () => (richLoading ??= options.loadRich().then((module) => (rich.value = module)));
  /** The confirm card's component, a chunk loaded with the first action to confirm. */
  const confirmCard = signal<typeof ConfirmCard | null>(null);
  let conversationId = restored?.conversationId ?? newId();
  /** Who answers once people were asked for (null: the agent, as at the start). */
  const people = signal<HandoffState | null>(null);
  // The live stream of people's messages and their styles: a chunk loaded only once people were in the conversation.
  let liveLoading: Promise<typeof Live> | undefined;
  const loadLive = () => (liveLoading ??= options.loadLive());
  /** A teammate typing (their name), shown until their message or the signal's end. */
  const teammateTyping = signal<string | null>(null);
  /** Nobody was available and the agent asked for an e-mail address: the panel offers a field for it. */
  const emailWanted = signal(false);
  /** The e-mail field, a chunk of its own loaded when an address is first asked for (the first open stays light). */
  const emailForm = signal<typeof EmailFormComponent | null>(null);
  let liveAfter = typeof restored?.liveAfter === 'number' ? restored.liveAfter : undefined;
  let stopLive: (() => void) | undefined;
  const visitorId = restored?.visitorId ?? newId();
  let system: string[] = Array.isArray(restored?.system) ? restored.system : [];
  let data: Record<string, unknown> = isRecord(restored?.data) ? restored.data : {};
  let teaserSeen = restored?.teaserSeen === true;
  let abort: AbortController | null = null;
  let stopping = false;
  /** The host's signed-in visitor (never stored: the host identifies them on every page). */
  let identity: InboundEvents['identify'] | undefined;

  // Derived on every read rather than cached: the page's path and the host's detectLocale are no signals, and a
  // single-page app changes them between renders. The signals read here still subscribe the view.
  const locale = (): Locale =>
    explicitLocale.value ??
    resolveLocale({ detected: overrides.detectLocale?.(), pathname: location.pathname, apiLocale: config.value.widget.locale });
  const agentName = () => config.value.agent.name || translate(locale(), 'defaultName');
  const t = (key: StringKey, values: Record<string, string | number> = {}) => translate(locale(), key, { name: agentName(), ...values });

  const persist = () =>
    session.write(storageKey, {
      conversationId, visitorId, system, data, teaserSeen,
      messages: messages.value.filter((message) => message.done && !message.error),
      open: open.value,
      ...(liveAfter === undefined ? {} : { liveAfter }),
    } satisfies Persisted);

  function setOpen(next: boolean): void {
    if (open.value === next) return;
    batch(() => {
      open.value = next;
      if (next) {
        teaserVisible.value = false;
        nudgeText.value = null;
        teaserSeen = true;
      }
    });
    persist();
    bus.emit(next ? 'widgetOpened' : 'widgetClosed');
  }

  function update(id: string, change: Partial<ChatMessage>): void {
    messages.value = messages.value.map((message) => (message.id === id ? { ...message, ...change } : message));
  }

  /** A completed bot message: tell the host page (with its markers) and screen readers. */
  function delivered(text: string, { parseMarkers, announcementOf }: typeof Rich): void {
    bus.emit('botResponse', { raw: text, markers: parseMarkers(text) });
    announcement.value = announcementOf(text);
    persist();
  }

  function botSays(text: string): void {
    messages.value = [...messages.value, { id: newId(), role: 'bot', text, done: true, at: Date.now() }];
    persist();
    void loadRich().then((module) => delivered(text, module));
  }

  /** The chunks a reply needs, loading from the visitor's first keystroke (a host's send loads them itself). */
  function prepareReply(): void {
    void loadReply();
    void loadRich();
  }

  /** The transcript within the endpoint's limits: the latest messages, each cut to the message length (a teammate's speak for the company; changes of hands are left out). */
  function historyForRequest(): ChatRequest['messages'] {
    return messages.value
      .filter((message) => message.done && !message.error && message.role !== 'event' && message.text.trim())
      .slice(-MAX_HISTORY)
      .map((message) => ({ role: message.role === 'user' ? 'user' : 'assistant', content: message.text.trim().slice(0, MAX_MESSAGE) }));
  }

  /** Who answers now, told to the host page (the outbound `handoff`) when it changed. */
  function handedTo(state: { handler: HandoffState['handler']; assignee: { name: string } | null; email?: 'requested' | 'given' }): void {
    emailWanted.value = state.handler === 'people' && state.email === 'requested';
    if (emailWanted.value && !emailForm.value) void import('./email-form').then((module) => (emailForm.value = module.EmailForm));
    const next: HandoffState = { handler: state.handler, assignee: state.assignee?.name ?? null };
    if (JSON.stringify(next) === JSON.stringify(people.value ?? { handler: 'agent', assignee: null })) return;
    people.value = next;
    bus.emit('handoff', next);
  }

  const chatUrl = () => config.value.chat.url || `${apiUrl.replace(/\/$/, '')}/v1/agents/${agentId}/chat`;
  /** The visitor's conversation as the chunks that call the chat's sibling paths (live, rating) address it. */
  const connection = () => ({ chatUrl: chatUrl(), conversationId, visitorId, fetch: fetchApi, identity });

  function clearLive(): void {
    stopLive?.();
    stopLive = undefined;
  }

  /** Follows people's messages from the conversation's live stream (once it was with people: also after a reload). */
  function followPeople(): void {
    if (stopLive) return;
    liveAfter ??= 0;
    const following = conversationId;
    stopLive = () => undefined;
    void loadLive().then((live) => {
      if (conversationId !== following || !stopLive) return;
      stopLive = live.followPeople({ ...connection(), conversationId: following, after: liveAfter ?? 0, locale: locale(), agentName: agentName() }, {
        onState: handedTo,
        onEnd: () => (stopLive = undefined),
        onTyping: (name) => (teammateTyping.value = name),
        onMessage(message, seq) {
          liveAfter = seq;
          if (message) {
            if (message.role === 'teammate') teammateTyping.value = null;
            messages.value = [...messages.value, { id: newId(), done: true, ...message }];
            announcement.value = message.author ? `${message.author}: ${message.text}` : message.text;
          }
          persist();
        },
      });
    });
  }

  /** Host messages that arrived while a reply streamed, in order; they go once it ends or stops. */
  const waiting: Waiting[] = [];

  /** One reply at a time: a host message during a reply waits for it, and the host is told (the `queued` event). */
  function whenIdle(kind: Waiting['kind'], text: string): void {
    if (!streaming.value) return void deliver({ kind, text });
    const accepted = waiting.length < MAX_WAITING;
    if (accepted) waiting.push({ kind, text });
    else console.warn(`[service-chat] ignored "${kind}": ${MAX_WAITING} messages already wait for the reply to end`);
    bus.emit('queued', { kind, text, accepted, waiting: waiting.length });
  }

  function deliver({ kind, text }: Waiting): void {
    if (kind === 'send') void send(text);
    else botSays(text);
  }

  /** After a reply: what waited goes, in order, until a send starts the next reply (the rest waits for that one). */
  function drainWaiting(): void {
    for (let next = waiting.shift(); next; next = streaming.value ? undefined : waiting.shift()) deliver(next);
  }

  /**
   * `handoff`: the visitor's Talk to a person (or the host's): the message goes to people, not to the agent. `email`:
   * the message is the address the visitor left in the e-mail field.
   */
  async function send(raw: string, handoff = false, email?: string): Promise<void> {
    const text = raw.trim().slice(0, MAX_MESSAGE);
    if (!text) return;
    messages.value = [...messages.value, { id: newId(), role: 'user', text, done: true, at: Date.now() }];
    bus.emit('userMessage', { text });
    persist();
    const erased = await reply({
      conversationId, visitorId, locale: locale(), language: navigator.language,
      messages: historyForRequest(),
      context: { system, data },
      page: { url: location.href, title: document.title },
      ...(handoff ? { handoff } : {}),
      ...(email ? { email } : {}),
    });
    // The erased conversation is forgotten, here and in the stored copy; the message starts a new one (a new id,
    // which nothing erased). An address left for a teammate asks for a person again there, and stays an address.
    if (erased) {
      clear();
      await send(text, handoff || email !== undefined, email);
    }
  }

  /** The visitor's Confirm or Decline of an action: the card goes, the server's answer streams in as a reply. */
  async function decide(id: string, actionId: string, confirm: boolean): Promise<void> {
    update(id, { confirm: undefined });
    await reply({ conversationId, visitorId, locale: locale(), actionId, confirm });
  }

  /**
   * Streams the reply to a request into a new bot message; actions to confirm follow it as cards. True: the message
   * was refused because its conversation was erased meanwhile (the visitor's data, or its retention: 410
   * CONVERSATION_ERASED); its reply is gone and nothing that waited was sent.
   */
  async function reply(request: ChatRequest | ChatDecision): Promise<boolean | void> {
    const replyId = newId();
    const confirms: ChatStreamEvents['confirm'][] = [];
    messages.value = [...messages.value, { id: replyId, role: 'bot', text: '', done: false }];
    streaming.value = true;
    stopping = false;
    abort = new AbortController();
    const uiActions: UiActionRequest[] = [];
    let navigation: string | undefined;
    let answer = '';
    let withPeople = false;
    let erased = false;
    try {
      const url = chatUrl();
      const [effects, richText] = await Promise.all([loadReply(), loadRich()]);
      const { messageId } = await effects.streamChat(
        url,
        request,
        {
          onDelta(delta) {
            answer += delta;
            update(replyId, { text: answer });
          },
          // Navigation and UI actions wait until the reply is complete and readable; one reply gets a bounded few.
          onNavigate: (href) => (navigation ??= href),
          onUiAction: (action) => uiActions.push(action),
          onConfirm(confirm) {
            confirms.push(confirm);
            void import('./confirm-card').then((module) => (confirmCard.value = module.ConfirmCard));
          },
          onHandoff(state) {
            withPeople = true;
            handedTo(state);
            followPeople();
          },
        },
        { fetch: fetchApi, idleTimeoutMs: config.value.chat.idleTimeoutMs, signal: abort.signal, identity },
      );
      // People took the message: the agent wrote nothing, so no empty reply stays on screen.
      if (withPeople && !answer) {
        messages.value = messages.value.filter((message) => message.id !== replyId);
        return persist();
      }
      update(replyId, { done: true, at: Date.now(), answerId: messageId });
      messages.value = [...messages.value, ...confirms.map((confirm) => ({ id: newId(), role: 'bot' as const, text: confirm.summary, done: true, confirm }))];
      delivered(answer, richText);
      for (const action of uiActions.slice(0, CHAT_LIMITS.uiActionsPerReply)) bus.emit('uiAction', action);
      // At most one navigation, and only a harmless one on this site without a click.
      const offer = navigation && effects.followNavigation(bus, navigation, locale(), (place) => t('openTarget', { target: place }));
      if (offer) update(replyId, { offer });
    } catch (error) {
      if (stopping) {
        update(replyId, { done: true, stopped: true, at: Date.now() });
        announcement.value = t('stopped');
        persist();
      }
      if (abort?.signal.aborted) return;
      const code = error instanceof Error && 'code' in error ? error.code : '';
      if (code === 'CONVERSATION_ERASED' && 'messages' in request) return (erased = true);
      const key: StringKey = code === 'RATE_LIMITED' ? 'rateLimited' : code === 'REPLY_TIMEOUT' ? 'timeout' : 'error';
      update(replyId, { text: t(key), done: true, error: true });
      announcement.value = t(key);
    } finally {
      streaming.value = false;
      abort = null;
      if (!erased) drainWaiting();
    }
  }

  /** The visitor's Stop: the request ends, so the server stops the reply (no tool call starts after it); what was written stays. */
  function stop(): void {
    stopping = true;
    abort?.abort();
  }

  function clear(): void {
    abort?.abort();
    clearLive();
    liveAfter = undefined;
    people.value = null;
    teammateTyping.value = null;
    emailWanted.value = false;
    waiting.length = 0;
    batch(() => {
      messages.value = [];
      streaming.value = false;
      announcement.value = '';
    });
    conversationId = newId();
    system = [];
    persist();
  }

  const warn = (name: string) => console.warn(`[service-chat] ignored "${name}": malformed payload`);
  const text = (payload: unknown): string | null =>
    isRecord(payload) && typeof payload.text === 'string' && payload.text.trim() ? payload.text : null;

  /** Inbound commands from the host page; payloads are untrusted and checked here. */
  const commands: { [N in keyof InboundEvents]: (payload: unknown) => void } = {
    open: () => setOpen(true),
    close: () => setOpen(false),
    toggle: () => setOpen(!open.value),
    send(payload) {
      const value = text(payload);
      if (value === null) return warn('send');
      if (isRecord(payload) && payload.openFirst) setOpen(true);
      whenIdle('send', value.trim().slice(0, MAX_MESSAGE));
    },
    botMessage(payload) {
      const value = text(payload);
      if (value === null) return warn('botMessage');
      if (isRecord(payload) && payload.openFirst) setOpen(true);
      whenIdle('botMessage', value.slice(0, MAX_MESSAGE));
    },
    system(payload) {
      if (!isRecord(payload) || typeof payload.prompt !== 'string' || !payload.prompt.trim()) return warn('system');
      system = [...system, payload.prompt.slice(0, MAX_MESSAGE)].slice(-MAX_SYSTEM);
      persist();
    },
    clear,
    setContext(payload) {
      if (!isRecord(payload)) return warn('setContext');
      const merged = { ...data, ...payload };
      if (JSON.stringify(merged).length > MAX_CONTEXT_JSON) return warn('setContext');
      data = merged;
      persist();
    },
    setLocale(payload) {
      if (!isRecord(payload) || !isLocale(payload.locale)) return warn('setLocale');
      explicitLocale.value = payload.locale;
    },
    highlight(payload) {
      const duration = isRecord(payload) && typeof payload.duration === 'number' ? payload.duration : FAB_HIGHLIGHT_MS;
      fabHighlight.value = true;
      setTimeout(() => (fabHighlight.value = false), Math.min(Math.max(duration, 0), 60_000));
    },
    badge(payload) {
      if (!isRecord(payload)) return warn('badge');
      const count = payload.count;
      if (count === null) badge.value = null;
      else if (typeof count === 'number' && Number.isInteger(count) && count >= 0) badge.value = count;
      else warn('badge');
    },
    nudge(payload) {
      const value = text(payload);
      if (value === null) return warn('nudge');
      showNudge(value.slice(0, 300), isRecord(payload) && typeof payload.duration === 'number' ? payload.duration : NUDGE_MS);
    },
    async identify(payload) {
      if (isRecord(payload) && typeof payload.userToken === 'string') identity = { userToken: payload.userToken };
      else if (isRecord(payload) && typeof payload.userId === 'string' && typeof payload.userHash === 'string') identity = { userId: payload.userId, userHash: payload.userHash };
      else return warn('identify');
      // A verified visitor continues their conversation from any device; the server ignores a forged identity.
      const found = await (await loadReply()).fetchHistory(`${apiUrl.replace(/\/$/, '')}/v1/agents/${agentId}/history`, identity, fetchApi);
      if (!found || streaming.value) return;
      conversationId = found.conversationId;
      messages.value = found.messages;
      persist();
    },
    handoff(payload) {
      // The widget's own outbound `handoff` (who answers now) passes here too: only a request is one.
      if (isRecord(payload) && 'handler' in payload) return;
      if ((payload !== undefined && !isRecord(payload)) || streaming.value) return warn('handoff');
      setOpen(true);
      void send(text(payload)?.slice(0, MAX_MESSAGE) ?? t('talkToPerson'), true);
    },
    uiAction(payload) {
      if (!isRecord(payload) || typeof payload.action !== 'string' || typeof payload.target !== 'string') return warn('uiAction');
      options.runUiAction?.({ action: payload.action as UiActionRequest['action'], target: payload.target });
    },
  };

  let nudgeTimer: ReturnType<typeof setTimeout> | undefined;
  function showNudge(value: string, duration: number): void {
    if (open.value) return;
    clearTimeout(nudgeTimer);
    nudgeText.value = value;
    nudgeTimer = setTimeout(() => (nudgeText.value = null), Math.min(Math.max(duration, 0), 120_000));
  }

  /** Load the configuration, run the timers, subscribe to the bus. Returns the teardown. */
  function start(): () => void {
    const timers: ReturnType<typeof setTimeout>[] = [];
    const later = (fn: () => void, delay: number) => timers.push(setTimeout(fn, Math.max(0, delay)));
    const mountedAt = performance.now();
    const elapsed = () => performance.now() - mountedAt;

    // The FAB appears after showDelay even while the configuration is still loading (it pulses meanwhile).
    later(() => (fabVisible.value = true), config.value.widget.showDelay);
    void loadWidgetConfig({ apiUrl, agentId, fetch: fetchApi }).then(({ config: loaded }) => {
      const merged = applyOverrides(loaded, overrides);
      batch(() => {
        config.value = merged;
        loading.value = false;
      });
      later(() => (fabVisible.value = true), merged.widget.showDelay - elapsed());
      later(() => {
        if (!open.value && !teaserSeen) teaserVisible.value = true;
      }, merged.widget.teaserDelay - elapsed());
      scheduleIdleNudge(merged.widget.idleNudgeDelay);
    });

    let idleTimer: ReturnType<typeof setTimeout> | undefined;
    let idleDelay = 0;
    let nudged = false;
    const resetIdle = () => {
      clearTimeout(idleTimer);
      if (idleDelay > 0 && !nudged) {
        idleTimer = setTimeout(() => {
          if (open.value) return resetIdle();
          nudged = true;
          showNudge(t('nudge'), NUDGE_MS);
        }, idleDelay);
      }
    };
    const activity = ['pointerdown', 'keydown', 'scroll'] as const;
    function scheduleIdleNudge(delay: number): void {
      idleDelay = delay;
      resetIdle();
    }
    for (const name of activity) addEventListener(name, resetIdle, { passive: true, capture: true });

    // Bot messages on screen (restored, a verified visitor's history, a host's botMessage) bring the rich text chunk.
    const stopRichWatch = effect(() => {
      if (messages.value.some((message) => message.role === 'bot')) void loadRich();
      // A teammate's messages (a verified visitor's history from another device) bring their styles.
      if (messages.value.some((message) => message.role === 'teammate' || message.role === 'event')) void loadLive();
    });
    // A conversation that was with people catches up on what came while the page was away.
    if (liveAfter !== undefined) followPeople();
    const unsubscribers = (Object.keys(commands) as (keyof InboundEvents)[]).map((name) => bus.on(name, commands[name]));
    bus.markReady((name, payload) => commands[name](payload));
    return () => {
      timers.forEach(clearTimeout);
      clearTimeout(idleTimer);
      clearTimeout(nudgeTimer);
      for (const name of activity) removeEventListener(name, resetIdle, { capture: true });
      unsubscribers.forEach((unsubscribe) => unsubscribe());
      stopRichWatch();
      abort?.abort();
      clearLive();
    };
  }

  return {
    config, loading, open, messages, streaming, badge, fabVisible, fabHighlight, teaserVisible, nudgeText,
    announcement, locale, agentName, dark, confirmCard, expression, rich, t, people, teammateTyping, emailWanted, emailForm,
    connection,
    bus, setOpen, send, decide, stop, clear, start, prepareReply,
    dismissTeaser() {
      teaserVisible.value = false;
      teaserSeen = true;
      persist();
    },
  };
}
