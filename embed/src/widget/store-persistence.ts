import { session } from '../core/storage';
import { isRecord, newId, type ChatMessage, type Conversation } from './store-core';

type Persisted = Conversation & { messages: ChatMessage[]; open: boolean };

/**
 * The visitor's conversation as this tab keeps it (sessionStorage, per agent): restored once, at creation (what it
 * held is checked, as a page's script may have written it), and written whole after every change.
 */
export function conversationStorage(agentId: string) {
  const key = `service-chat:conversation:${agentId}`;
  const restored = session.read<Persisted>(key);
  const conversation: Conversation = {
    conversationId: restored?.conversationId ?? newId(),
    visitorId: restored?.visitorId ?? newId(),
    system: Array.isArray(restored?.system) ? restored.system : [],
    data: isRecord(restored?.data) ? restored.data : {},
    teaserSeen: restored?.teaserSeen === true,
    ...(typeof restored?.liveAfter === 'number' ? { liveAfter: restored.liveAfter } : {}),
  };
  return {
    conversation,
    open: restored?.open === true,
    messages: Array.isArray(restored?.messages) ? restored.messages.filter((m) => m.done) : [],
    write: (messages: ChatMessage[], open: boolean) =>
      session.write(key, {
        ...conversation,
        messages: messages.filter((message) => message.done && !message.error),
        open,
      } satisfies Persisted),
  };
}
