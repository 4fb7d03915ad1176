import type { ConfigOverrides, WidgetConfig } from '../core/config';
import { applyOverrides, DEFAULT_CONFIG, loadWidgetConfig } from '../core/config';
import { resolveLocale, translate } from '../core/locale';
import type { StringKey } from '../core/locale';
import { batch, computed, effect, signal } from '@preact/signals';
import type { ChatBus, Locale, UiActionRequest } from '../core/event-bus';
import type * as Live from './live';
import type * as Rich from './rich-text';
import { createHostCommands } from './store-commands';
import { loadReply } from './store-chunks';
import { newId, type ChatMessage, type StoreCore } from './store-core';
import { createNudges } from './store-nudges';
import { createPeople } from './store-people';
import { conversationStorage } from './store-persistence';
import { createReplies } from './store-replies';

export type { ChatMessage } from './store-core';

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

export type WidgetStore = ReturnType<typeof createStore>;

/** The agent's face, as the avatar's views name them (`avatar.svg#thinking`). */
export type Expression = 'idle' | 'thinking' | 'talking';

/**
 * The widget's state, composed of its parts: the stored conversation (store-persistence.ts), the replies
 * (store-replies.ts), people (store-people.ts), the host's commands (store-commands.ts) and the nudges
 * (store-nudges.ts). What the panel reads are signals.
 */
export function createStore(options: StoreOptions) {
  const { bus, agentId, apiUrl } = options;
  const fetchApi = options.fetch ?? fetch.bind(globalThis);
  const overrides = options.config ?? {};
  const storage = conversationStorage(agentId);
  const { conversation } = storage;
  const config = signal<WidgetConfig>(applyOverrides(DEFAULT_CONFIG, overrides));
  const loading = signal(true);
  const open = signal(storage.open);
  const messages = signal<ChatMessage[]>(storage.messages);
  const streaming = signal(false);
  const announcement = signal('');
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
  // The live stream of people's messages and their styles: a chunk loaded only once people were in the conversation.
  let liveLoading: Promise<typeof Live> | undefined;
  const loadLive = () => (liveLoading ??= options.loadLive());

  // Derived on every read rather than cached: the page's path and the host's detectLocale are no signals, and a
  // single-page app changes them between renders. The signals read here still subscribe the view.
  const locale = (): Locale =>
    host.explicitLocale.value ?? resolveLocale({ detected: overrides.detectLocale?.(), pathname: location.pathname, apiLocale: config.value.widget.locale });
  const agentName = () => config.value.agent.name || translate(locale(), 'defaultName');
  const t = (key: StringKey, values: Record<string, string | number> = {}) => translate(locale(), key, { name: agentName(), ...values });
  const chatUrl = () => config.value.chat.url || `${apiUrl.replace(/\/$/, '')}/v1/agents/${agentId}/chat`;

  const core: StoreCore = {
    bus,
    config,
    open,
    messages,
    streaming,
    announcement,
    conversation,
    fetchApi,
    locale,
    agentName,
    t,
    chatUrl,
    persist: () => storage.write(messages.value, open.value),
    update(id, change) {
      messages.value = messages.value.map((message) => (message.id === id ? { ...message, ...change } : message));
    },
    delivered(text, { parseMarkers, announcementOf }) {
      bus.emit('botResponse', { raw: text, markers: parseMarkers(text) });
      announcement.value = announcementOf(text);
      core.persist();
    },
    failed(id, key) {
      core.update(id, { text: t(key), done: true, error: true });
      announcement.value = t(key);
    },
    connection: () => ({
      chatUrl: chatUrl(),
      conversationId: conversation.conversationId,
      visitorId: conversation.visitorId,
      fetch: fetchApi,
      identity: core.identity,
    }),
  };
  const nudges = createNudges(core, options.fabShown === true);
  const people = createPeople(core, loadLive);
  const replies = createReplies(core, { people: people.state, loadRich, clear, idle: () => host.drainWaiting() });
  const host = createHostCommands(core, {
    setOpen,
    send: replies.send,
    botSays,
    clear,
    nudge: nudges.show,
    historyUrl: `${apiUrl.replace(/\/$/, '')}/v1/agents/${agentId}/history`,
    runUiAction: options.runUiAction,
  });

  function setOpen(next: boolean): void {
    if (open.value === next) return;
    batch(() => {
      open.value = next;
      if (next) {
        nudges.teaserVisible.value = false;
        nudges.nudgeText.value = null;
        conversation.teaserSeen = true;
      }
    });
    core.persist();
    bus.emit(next ? 'widgetOpened' : 'widgetClosed');
  }

  function botSays(text: string): void {
    messages.value = [...messages.value, { id: newId(), role: 'bot', text, done: true, at: Date.now() }];
    core.persist();
    void loadRich().then((module) => core.delivered(text, module));
  }

  /** The chunks a reply needs, loading from the visitor's first keystroke (a host's send loads them itself). */
  function prepareReply(): void {
    void loadReply();
    void loadRich();
  }

  function clear(): void {
    replies.cancel();
    people.reset();
    host.forgetWaiting();
    batch(() => {
      messages.value = [];
      streaming.value = false;
      announcement.value = '';
    });
    conversation.conversationId = newId();
    conversation.system = [];
    core.persist();
  }

  /** Load the configuration, run the timers, subscribe to the bus. Returns the teardown. */
  function start(): () => void {
    nudges.start(config.value.widget.showDelay);
    void loadWidgetConfig({ apiUrl, agentId, fetch: fetchApi }).then(({ config: loaded }) => {
      const merged = applyOverrides(loaded, overrides);
      batch(() => {
        config.value = merged;
        loading.value = false;
      });
      nudges.configured(merged.widget);
    });

    // Bot messages on screen (restored, a verified visitor's history, a host's botMessage) bring the rich text chunk.
    const stopRichWatch = effect(() => {
      if (messages.value.some((message) => message.role === 'bot')) void loadRich();
      // A teammate's messages (a verified visitor's history from another device) bring their styles.
      if (messages.value.some((message) => message.role === 'teammate' || message.role === 'event')) void loadLive();
    });
    // A conversation that was with people catches up on what came while the page was away.
    if (conversation.liveAfter !== undefined) people.state.follow();
    const stopCommands = host.listen();
    return () => {
      nudges.stop();
      stopCommands();
      stopRichWatch();
      replies.cancel();
      people.stop();
    };
  }

  return {
    config,
    loading,
    open,
    messages,
    streaming,
    badge: host.badge,
    fabVisible: nudges.fabVisible,
    fabHighlight: host.fabHighlight,
    teaserVisible: nudges.teaserVisible,
    nudgeText: nudges.nudgeText,
    announcement,
    locale,
    agentName,
    dark,
    confirmCard: replies.confirmCard,
    expression,
    rich,
    t,
    people: people.state.people,
    teammateTyping: people.state.teammateTyping,
    emailWanted: people.state.emailWanted,
    emailForm: people.state.emailForm,
    connection: core.connection,
    bus,
    setOpen,
    send: replies.send,
    decide: replies.decide,
    stop: replies.stop,
    clear,
    start,
    prepareReply,
    dismissTeaser() {
      nudges.teaserVisible.value = false;
      conversation.teaserSeen = true;
      core.persist();
    },
  };
}
