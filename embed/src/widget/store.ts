import { batch, computed, signal } from '@preact/signals';
import { streamChat, ChatError } from '../core/chat-client';
import { applyOverrides, DEFAULT_CONFIG, loadWidgetConfig } from '../core/config';
import { isLocale, resolveLocale, translate } from '../core/locale';
import { parseMarkers, parseRichText } from '../core/markers';
import { requestNavigation } from '../core/navigate';
import { session } from '../core/storage';
import type { ChatBus } from '../core/bus';
import type { ChatRequest } from '../core/chat-client';
import type { ConfigOverrides, WidgetConfig } from '../core/config';
import type { InboundEvents, Locale, UiActionRequest } from '../core/events';
import type { StringKey } from '../core/locale';

export interface ChatMessage {
  id: string;
  role: 'user' | 'bot';
  text: string;
  done: boolean;
  error?: boolean;
}

export interface StoreOptions {
  bus: ChatBus;
  agentId: string;
  apiUrl: string;
  config?: ConfigOverrides;
  /** Runs a UI action (the overlay); omitted when a separate ChatPointerOverlay handles them. */
  runUiAction?: (request: UiActionRequest) => void;
}

interface Persisted {
  conversationId: string;
  visitorId: string;
  messages: ChatMessage[];
  system: string[];
  data: Record<string, unknown>;
  open: boolean;
  teaserSeen: boolean;
}

// Bounds on what a host page or visitor can push into the conversation.
const MAX_MESSAGE = 4000;
const MAX_HISTORY = 30;
const MAX_SYSTEM = 20;
const MAX_CONTEXT_JSON = 8000;
const FAB_HIGHLIGHT_MS = 3000;
const NUDGE_MS = 6000;

const newId = () => crypto.randomUUID();
const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Text a screen reader should hear for a bot message: markers reduced to their labels. */
export function spokenText(text: string): string {
  return parseRichText(text)
    .map((segment) => (segment.kind === 'text' ? segment.text : segment.marker.label))
    .join('')
    .replace(/[*`]/g, '');
}

export type WidgetStore = ReturnType<typeof createStore>;

export function createStore(options: StoreOptions) {
  const { bus, agentId, apiUrl } = options;
  const overrides = options.config ?? {};
  const storageKey = `service-chat:conversation:${agentId}`;
  const restored = session.read<Persisted>(storageKey);

  const config = signal<WidgetConfig>(applyOverrides(DEFAULT_CONFIG, overrides));
  const loading = signal(true);
  const open = signal(restored?.open === true);
  const messages = signal<ChatMessage[]>(Array.isArray(restored?.messages) ? restored.messages.filter((m) => m.done) : []);
  const streaming = signal(false);
  const badge = signal<number | null>(null);
  const fabVisible = signal(false);
  const fabHighlight = signal(false);
  const teaserVisible = signal(false);
  const nudgeText = signal<string | null>(null);
  const announcement = signal('');
  const explicitLocale = signal<Locale | null>(null);
  let conversationId = restored?.conversationId ?? newId();
  const visitorId = restored?.visitorId ?? newId();
  let system: string[] = Array.isArray(restored?.system) ? restored.system : [];
  let data: Record<string, unknown> = isRecord(restored?.data) ? restored.data : {};
  let teaserSeen = restored?.teaserSeen === true;
  let abort: AbortController | null = null;

  const locale = computed<Locale>(
    () =>
      explicitLocale.value ??
      resolveLocale({ detected: overrides.detectLocale?.(), pathname: location.pathname, apiLocale: config.value.widget.locale }),
  );
  const t = (key: StringKey, values: Record<string, string | number> = {}) =>
    translate(locale.value, key, { name: agentName.value, ...values });
  const agentName = computed(() => config.value.agent.name || translate(locale.value, 'defaultName'));

  const persist = () =>
    session.write(storageKey, {
      conversationId, visitorId, system, data, teaserSeen,
      messages: messages.value.filter((message) => message.done && !message.error),
      open: open.value,
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
  function delivered(text: string): void {
    bus.emit('botResponse', { raw: text, markers: parseMarkers(text) });
    announcement.value = spokenText(text);
    persist();
  }

  function botSays(text: string): void {
    messages.value = [...messages.value, { id: newId(), role: 'bot', text, done: true }];
    delivered(text);
  }

  const navigate = (href: string) => requestNavigation(bus, href, locale.value);

  function historyForRequest(): ChatRequest['messages'] {
    return messages.value
      .filter((message) => message.done && !message.error && message.text)
      .slice(-MAX_HISTORY)
      .map((message) => ({ role: message.role === 'user' ? 'user' : 'assistant', content: message.text }));
  }

  async function send(raw: string): Promise<void> {
    const text = raw.trim().slice(0, MAX_MESSAGE);
    // One reply at a time: a second send while streaming would double the model's work.
    if (!text || streaming.value) return;
    messages.value = [...messages.value, { id: newId(), role: 'user', text, done: true }];
    bus.emit('userMessage', { text });
    persist();
    const replyId = newId();
    const request: ChatRequest = {
      conversationId, visitorId, locale: locale.value,
      messages: historyForRequest(),
      context: { system, data },
      page: { url: location.href, title: document.title },
    };
    messages.value = [...messages.value, { id: replyId, role: 'bot', text: '', done: false }];
    streaming.value = true;
    abort = new AbortController();
    const after: (() => void)[] = [];
    let reply = '';
    try {
      const url = config.value.chat.url || `${apiUrl.replace(/\/$/, '')}/v1/agents/${agentId}/chat`;
      await streamChat(
        url,
        request,
        {
          onDelta(delta) {
            reply += delta;
            update(replyId, { text: reply });
          },
          // Navigation and UI actions wait until the reply is complete and readable.
          onNavigate: (href) => after.push(() => navigate(href)),
          onUiAction: (action) => after.push(() => bus.emit('uiAction', action)),
        },
        abort.signal,
      );
      update(replyId, { done: true });
      delivered(reply);
      for (const action of after) action();
    } catch (error) {
      if (abort?.signal.aborted) return;
      const key: StringKey = error instanceof ChatError && error.code === 'RATE_LIMITED' ? 'rateLimited' : 'error';
      update(replyId, { text: t(key), done: true, error: true });
      announcement.value = t(key);
    } finally {
      streaming.value = false;
      abort = null;
    }
  }

  function clear(): void {
    abort?.abort();
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
      void send(value);
    },
    botMessage(payload) {
      const value = text(payload);
      if (value === null) return warn('botMessage');
      if (isRecord(payload) && payload.openFirst) setOpen(true);
      botSays(value.slice(0, MAX_MESSAGE));
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
    void loadWidgetConfig({ apiUrl, agentId }).then(({ config: loaded }) => {
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

    const unsubscribers = (Object.keys(commands) as (keyof InboundEvents)[]).map((name) => bus.on(name, commands[name]));
    bus.markReady();
    return () => {
      timers.forEach(clearTimeout);
      clearTimeout(idleTimer);
      clearTimeout(nudgeTimer);
      for (const name of activity) removeEventListener(name, resetIdle, { capture: true });
      unsubscribers.forEach((unsubscribe) => unsubscribe());
      abort?.abort();
    };
  }

  return {
    config, loading, open, messages, streaming, badge, fabVisible, fabHighlight, teaserVisible, nudgeText,
    announcement, locale, agentName, t,
    bus, setOpen, send, clear, start,
    dismissTeaser() {
      teaserVisible.value = false;
      teaserSeen = true;
      persist();
    },
  };
}
