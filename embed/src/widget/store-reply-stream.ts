// The chunk a message's reply needs, loaded from the visitor's first keystroke (the first open does not need it): the
// reply's stream into the transcript, with the chat client and what a complete reply may do to the page; and the
// handling of people's live stream.
import { CHAT_LIMITS } from '@service/shared/widget-protocol';
import type { ChatDecision, ChatStreamEvents } from '@service/shared/widget-protocol';
import type { Signal } from '@preact/signals';
import type { ChatRequest } from '../core/chat-client';
import type { StringKey } from '../core/locale';
import type { UiActionRequest } from '../core/event-bus';
import type { ConfirmCard } from './confirm-card';
import { followNavigation, streamChat } from './reply';
import type * as Rich from './rich-text';
import { newId, type PeopleState, type StoreCore } from './store-core';
import { handedTo } from './store-people-live';

export { fetchHistory, visitorIdentity } from './reply';
export { followPeople } from './store-people-live';

/** What a reply answers: the visitor's message (the transcript goes with it) or their decision on an action. */
export type ReplyTo = { handoff: boolean; email: string | undefined } | Pick<ChatDecision, 'actionId' | 'confirm'>;

export interface ReplyStream {
  /** The bot message the reply streams into (on screen, empty, not done). */
  replyId: string;
  url: string;
  to: ReplyTo;
  rich: typeof Rich;
  signal: AbortSignal;
  /** Whether the visitor stopped the reply. */
  stopped(): boolean;
  confirmCard: Signal<typeof ConfirmCard | null>;
}

/** The transcript within the endpoint's limits: the latest messages, each cut to the message length (a teammate's speak for the company; changes of hands are left out). */
function historyForRequest({ messages }: StoreCore): ChatRequest['messages'] {
  return messages.value
    .filter((message) => message.done && !message.error && message.role !== 'event' && message.text.trim())
    .slice(-CHAT_LIMITS.messages)
    .map((message) => ({ role: message.role === 'user' ? 'user' : 'assistant', content: message.text.trim().slice(0, CHAT_LIMITS.messageChars) }));
}

function requestOf(core: StoreCore, to: ReplyTo): ChatRequest | ChatDecision {
  const { conversationId, visitorId, system, data } = core.conversation;
  if ('actionId' in to) return { conversationId, visitorId, locale: core.locale(), ...to };
  return {
    conversationId,
    visitorId,
    locale: core.locale(),
    language: navigator.language,
    messages: historyForRequest(core),
    context: { system, data },
    page: { url: location.href, title: document.title },
    ...(to.handoff ? { handoff: to.handoff } : {}),
    ...(to.email ? { email: to.email } : {}),
  };
}

/**
 * Streams a reply into its message; actions to confirm follow it as cards, then the host page hears of it, with the
 * UI actions and the navigation the model asked for. A reply that fails says so in its message. True: the message
 * was refused because its conversation was erased meanwhile (the visitor's data, or its retention: 410
 * CONVERSATION_ERASED); its reply is gone.
 */
export async function streamReply(core: StoreCore, people: PeopleState, stream: ReplyStream): Promise<boolean> {
  const { bus, messages, update, t } = core;
  const { replyId, signal } = stream;
  const confirms: ChatStreamEvents['confirm'][] = [];
  const uiActions: UiActionRequest[] = [];
  let navigation: string | undefined;
  let answer = '';
  let withPeople = false;
  try {
    const { messageId } = await streamChat(
      stream.url,
      requestOf(core, stream.to),
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
          void import('./confirm-card').then((module) => (stream.confirmCard.value = module.ConfirmCard));
        },
        onHandoff(state) {
          withPeople = true;
          handedTo(core, people, state);
          people.follow();
        },
      },
      { fetch: core.fetchApi, idleTimeoutMs: core.config.value.chat.idleTimeoutMs, signal, identity: core.identity },
    );
    // People took the message: the agent wrote nothing, so no empty reply stays on screen.
    if (withPeople && !answer) {
      messages.value = messages.value.filter((message) => message.id !== replyId);
      core.persist();
      return false;
    }
    update(replyId, { done: true, at: Date.now(), answerId: messageId });
    messages.value = [...messages.value, ...confirms.map((confirm) => ({ id: newId(), role: 'bot' as const, text: confirm.summary, done: true, confirm }))];
    core.delivered(answer, stream.rich);
    for (const action of uiActions.slice(0, CHAT_LIMITS.uiActionsPerReply)) bus.emit('uiAction', action);
    // At most one navigation, and only a harmless one on this site without a click.
    const offer = navigation && followNavigation(bus, navigation, core.locale(), (place) => t('openTarget', { target: place }));
    if (offer) update(replyId, { offer });
  } catch (error) {
    if (stream.stopped()) {
      update(replyId, { done: true, stopped: true, at: Date.now() });
      core.announcement.value = t('stopped');
      core.persist();
    }
    if (signal.aborted) return false;
    const code = error instanceof Error && 'code' in error ? error.code : '';
    if (code === 'CONVERSATION_ERASED' && !('actionId' in stream.to)) return true;
    const key: StringKey = code === 'RATE_LIMITED' ? 'rateLimited' : code === 'REPLY_TIMEOUT' ? 'timeout' : 'error';
    core.failed(replyId, key);
  }
  return false;
}
