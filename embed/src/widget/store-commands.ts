import { CHAT_LIMITS } from '@service/shared/widget-protocol';
import { signal } from '@preact/signals';
import { isLocale } from '../core/locale';
import type { InboundEvents, Locale, UiActionRequest } from '../core/event-bus';
import { loadReply } from './store-chunks';
import { isRecord, type StoreCore } from './store-core';

// Bounds on what a host page can push into the conversation: the chat endpoint's own limits.
const MAX_MESSAGE = CHAT_LIMITS.messageChars;
// Host `send` and `botMessage` commands that arrive while a reply streams wait their turn, up to this many.
const MAX_WAITING = 5;
const FAB_HIGHLIGHT_MS = 3000;

/** A host message waiting for the reply on screen to end. */
interface Waiting {
  kind: 'send' | 'botMessage';
  text: string;
}

export interface HostCommandsDeps {
  setOpen(next: boolean): void;
  send(text: string, handoff?: boolean): Promise<void>;
  botSays(text: string): void;
  clear(): void;
  nudge(text: string, duration?: number): void;
  /** Where a verified visitor's conversation is read from (the chat's sibling `history`). */
  historyUrl: string;
  runUiAction?: ((request: UiActionRequest) => void) | undefined;
}

const warn = (name: string) => console.warn(`[service-chat] ignored "${name}": malformed payload`);
const textOf = (payload: unknown): string | null => (isRecord(payload) && typeof payload.text === 'string' && payload.text.trim() ? payload.text : null);

/**
 * The host page's inbound commands (payloads are untrusted and checked here), and the host messages that wait while
 * a reply streams: one reply at a time.
 */
export function createHostCommands(core: StoreCore, deps: HostCommandsDeps) {
  const { messages, streaming, conversation, open } = core;
  const { setOpen } = deps;
  /** What the host page set: the language, the FAB's highlight and its badge. */
  const explicitLocale = signal<Locale | null>(null);
  const fabHighlight = signal(false);
  const badge = signal<number | null>(null);
  /** Host messages that arrived while a reply streamed, in order; they go once it ends or stops. */
  const waiting: Waiting[] = [];

  /** A host message during a reply waits for it, and the host is told (the `queued` event). */
  function whenIdle(kind: Waiting['kind'], text: string): void {
    if (!streaming.value) return void deliver({ kind, text });
    const accepted = waiting.length < MAX_WAITING;
    if (accepted) waiting.push({ kind, text });
    else console.warn(`[service-chat] ignored "${kind}": ${MAX_WAITING} messages already wait for the reply to end`);
    core.bus.emit('queued', { kind, text, accepted, waiting: waiting.length });
  }

  function deliver({ kind, text }: Waiting): void {
    if (kind === 'send') void deps.send(text);
    else deps.botSays(text);
  }

  /** After a reply: what waited goes, in order, until a send starts the next reply (the rest waits for that one). */
  function drainWaiting(): void {
    for (let next = waiting.shift(); next; next = streaming.value ? undefined : waiting.shift()) deliver(next);
  }

  const commands: { [N in keyof InboundEvents]: (payload: unknown) => void } = {
    open: () => setOpen(true),
    close: () => setOpen(false),
    toggle: () => setOpen(!open.value),
    send(payload) {
      const value = textOf(payload);
      if (value === null) return warn('send');
      if (isRecord(payload) && payload.openFirst) setOpen(true);
      whenIdle('send', value.trim().slice(0, MAX_MESSAGE));
    },
    botMessage(payload) {
      const value = textOf(payload);
      if (value === null) return warn('botMessage');
      if (isRecord(payload) && payload.openFirst) setOpen(true);
      whenIdle('botMessage', value.slice(0, MAX_MESSAGE));
    },
    system(payload) {
      if (!isRecord(payload) || typeof payload.prompt !== 'string' || !payload.prompt.trim()) return warn('system');
      conversation.system = [...conversation.system, payload.prompt.slice(0, MAX_MESSAGE)].slice(-CHAT_LIMITS.systemPrompts);
      core.persist();
    },
    clear: () => deps.clear(),
    setContext(payload) {
      if (!isRecord(payload)) return warn('setContext');
      const merged = { ...conversation.data, ...payload };
      if (JSON.stringify(merged).length > CHAT_LIMITS.contextJsonChars) return warn('setContext');
      conversation.data = merged;
      core.persist();
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
      const value = textOf(payload);
      if (value === null) return warn('nudge');
      deps.nudge(value.slice(0, 300), isRecord(payload) && typeof payload.duration === 'number' ? payload.duration : undefined);
    },
    async identify(payload) {
      // Read by the reply's chunk (the first open has no use for it).
      const reply = await loadReply();
      const identity = reply.visitorIdentity(payload);
      if (!identity) return warn('identify');
      core.identity = identity;
      // A verified visitor continues their conversation from any device; the server ignores a forged identity.
      const found = await reply.fetchHistory(deps.historyUrl, identity, core.fetchApi);
      if (!found || streaming.value) return;
      conversation.conversationId = found.conversationId;
      messages.value = found.messages;
      core.persist();
    },
    handoff(payload) {
      // The widget's own outbound `handoff` (who answers now) passes here too: only a request is one.
      if (isRecord(payload) && 'handler' in payload) return;
      if ((payload !== undefined && !isRecord(payload)) || streaming.value) return warn('handoff');
      setOpen(true);
      void deps.send(textOf(payload)?.slice(0, MAX_MESSAGE) ?? core.t('talkToPerson'), true);
    },
    uiAction(payload) {
      if (!isRecord(payload) || typeof payload.action !== 'string' || typeof payload.target !== 'string') return warn('uiAction');
      deps.runUiAction?.({ action: payload.action as UiActionRequest['action'], target: payload.target });
    },
  };

  /** Subscribes the commands to the bus (and runs what the host sent before the widget was ready); returns the unsubscribe. */
  function listen(): () => void {
    const { bus } = core;
    const unsubscribers = (Object.keys(commands) as (keyof InboundEvents)[]).map((name) => bus.on(name, commands[name]));
    bus.markReady((name, payload) => commands[name](payload));
    return () => unsubscribers.forEach((unsubscribe) => unsubscribe());
  }

  return { explicitLocale, fabHighlight, badge, listen, drainWaiting, forgetWaiting: () => (waiting.length = 0) };
}
