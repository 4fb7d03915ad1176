import { CHAT_LIMITS } from '@service/shared/widget-protocol';
import { signal } from '@preact/signals';
import type { ConfirmCard } from './confirm-card';
import type * as Rich from './rich-text';
import { loadReply } from './store-chunks';
import { newId, type PeopleState, type StoreCore } from './store-core';
import type * as ReplyStream from './store-reply-stream';

export interface RepliesDeps {
  people: PeopleState;
  loadRich(): Promise<typeof Rich>;
  /** Called after each reply that was not refused as erased: the host messages that waited go. */
  idle(): void;
  /** Forgets the conversation (an erased one's message then starts a new one). */
  clear(): void;
}

/**
 * The visitor's messages and the agent's replies, one at a time: what is on screen at once (the message, the reply's
 * empty bubble, `streaming`), so a host message that follows waits; the reply itself streams in from its chunk
 * (store-reply-stream.ts) until it ends, fails or the visitor stops it.
 */
export function createReplies(core: StoreCore, deps: RepliesDeps) {
  const { messages, streaming } = core;
  /** The confirm card's component, a chunk loaded with the first action to confirm. */
  const confirmCard = signal<typeof ConfirmCard | null>(null);
  let abort: AbortController | null = null;
  let stopping = false;

  async function reply(to: ReplyStream.ReplyTo): Promise<boolean> {
    const replyId = newId();
    messages.value = [...messages.value, { id: replyId, role: 'bot', text: '', done: false }];
    streaming.value = true;
    stopping = false;
    const { signal: aborted } = (abort = new AbortController());
    let erased = false;
    try {
      const url = core.chatUrl();
      const [replies, rich] = await Promise.all([loadReply(), deps.loadRich()]);
      erased = await replies.streamReply(core, deps.people, { replyId, url, to, rich, signal: aborted, stopped: () => stopping, confirmCard });
    } catch {
      // The reply's chunk did not load.
      if (!aborted.aborted) core.failed(replyId, 'error');
    } finally {
      streaming.value = false;
      abort = null;
      if (!erased) deps.idle();
    }
    return erased;
  }

  /**
   * `handoff`: the visitor's Talk to a person (or the host's): the message goes to people, not to the agent. `email`:
   * the message is the address the visitor left in the e-mail field.
   */
  async function send(raw: string, handoff = false, email?: string): Promise<void> {
    const text = raw.trim().slice(0, CHAT_LIMITS.messageChars);
    if (!text) return;
    messages.value = [...messages.value, { id: newId(), role: 'user', text, done: true, at: Date.now() }];
    core.bus.emit('userMessage', { text });
    core.persist();
    // The erased conversation is forgotten, here and in the stored copy; the message starts a new one (a new id,
    // which nothing erased). An address left for a teammate asks for a person again there, and stays an address.
    if (await reply({ handoff, email })) {
      deps.clear();
      await send(text, handoff || email !== undefined, email);
    }
  }

  return {
    confirmCard,
    send,
    /** The visitor's Confirm or Decline of an action: the card goes, the server's answer streams in as a reply. */
    async decide(id: string, actionId: string, confirm: boolean): Promise<void> {
      core.update(id, { confirm: undefined });
      await reply({ actionId, confirm });
    },
    /** The visitor's Stop: the request ends, so the server stops the reply (no tool call starts after it); what was written stays. */
    stop(): void {
      stopping = true;
      abort?.abort();
    },
    /** Ends the reply on screen, if any (a cleared conversation, the widget's teardown). */
    cancel: () => abort?.abort(),
  };
}
