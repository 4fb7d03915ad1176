import type { LiveMessage, LiveState, LiveStreamEvents } from '@service/shared/live-conversation';
import DataLoader from 'dataloader';
import type { Deps } from '../../infra/deps';
import type { Store } from '../../infra/store/dynamo';
import { SharedPoll, sharedPolls } from '../../infra/shared-poll';
import { onConversation } from './conversation-signal';
import { visibleToVisitor } from './conversations';
import { liveStateOf } from './conversation-state';
import { queryMessagesAfter, readConversationMetas, seqOf, type ConversationMetaItem, type StoredMessage } from './repository';

/** One event of a live stream: a `message` has its seq as `id`; `state` and `typing` have none. */
export type LiveEvent = { [N in keyof LiveStreamEvents]: { name: N; id?: string; data: LiveStreamEvents[N] } }[keyof LiveStreamEvents];

const PAGE = 100;

/**
 * The polls of one turn of the event loop read their conversations' `meta` items together (one BatchGetItem for up to
 * 100): quiet polls wake on the same second (infra/shared-poll.ts), so a process following many conversations reads
 * them in a few requests a second, not one each.
 */
const metaReaders = new WeakMap<Store, DataLoader<string, ConversationMetaItem | undefined>>();
function readMeta(deps: Deps, conversationId: string): Promise<ConversationMetaItem | undefined> {
  let reader = metaReaders.get(deps.store);
  if (!reader) {
    reader = new DataLoader(
      async (ids) => {
        const metas = await readConversationMetas(deps, ids);
        return ids.map((id) => metas.get(id));
      },
      { cache: false, batchScheduleFn: (read) => setImmediate(read) },
    );
    metaReaders.set(deps.store, reader);
  }
  return reader.load(conversationId);
}
export const toLiveMessage = (message: StoredMessage): LiveMessage => ({
  seq: seqOf(message.messageId),
  role: message.role,
  text: message.content,
  at: message.createdAt,
  author: message.author ?? null,
  event: message.event ?? null,
});

/**
 * The shared poll of a conversation (infra/shared-poll.ts): it keeps the entries read so far, in order and without a
 * gap, and who handles it, for every stream of the conversation (one read a poll, two when the transcript grew).
 */
class ConversationWatch extends SharedPoll {
  readonly messages: StoredMessage[] = [];
  state: LiveState | undefined;
  typing: { name: string; until: number } | undefined;
  private cursor = 0;

  constructor(
    private readonly deps: Deps,
    private readonly conversationId: string,
    onIdle: () => void,
  ) {
    super({ what: 'conversation', key: conversationId }, (listener) => onConversation(conversationId, listener), onIdle);
  }

  /** Reads what is new; whether anything a stream shows changed. */
  protected async poll(): Promise<boolean> {
    const meta = await readMeta(this.deps, this.conversationId);
    if (!meta) return false;
    let changed = this.noteState(meta);
    while (Number(meta.messageCount ?? 0) > this.cursor) {
      const page = await queryMessagesAfter(this.deps, this.conversationId, this.cursor, PAGE);
      const before = this.cursor;
      this.take(page, Number(meta.messageCount ?? 0));
      if (this.cursor === before) break;
      changed = true;
      if (page.length < PAGE) break;
    }
    return changed;
  }

  private noteState(meta: ConversationMetaItem): boolean {
    const state = liveStateOf(meta);
    const typing = meta.typing && meta.typing.until > this.deps.now().getTime() ? meta.typing : undefined;
    const changed = JSON.stringify(state) !== JSON.stringify(this.state) || typing?.until !== this.typing?.until;
    this.state = state;
    this.typing = typing;
    return changed;
  }

  /** Takes the entries that continue the transcript without a gap; a gap is waited for, then skipped. */
  private take(page: StoredMessage[], count: number): void {
    for (const message of page) {
      const seq = seqOf(message.messageId);
      if (seq > this.cursor + 1 && !this.gapExpired()) return;
      this.gapClosed();
      this.messages.push(message);
      this.cursor = seq;
    }
    // The positions up to the count are taken; an entry missing at the end is a gap too.
    if (count > this.cursor && this.gapExpired()) {
      this.cursor = page.length === 0 ? count : this.cursor;
      this.gapClosed();
    }
  }
}

const watches = sharedPolls<ConversationWatch>();

/**
 * Follows a conversation: `deliver` gets the current `state` (and a teammate typing) at once, then the entries after
 * position `afterSeq` in order, and `state`/`typing` whenever they change. `notes`: whether internal notes are shown
 * (teammates only). Returns the way to stop following.
 */
export function followConversation(
  deps: Deps,
  conversationId: string,
  afterSeq: number,
  options: { notes: boolean },
  deliver: (events: LiveEvent[]) => void,
): () => void {
  const current = watches.follow(conversationId, (forget) => new ConversationWatch(deps, conversationId, forget));
  let shownState: string | undefined;
  let shownTyping: number | undefined;
  let next = 0;
  let stopped = false;
  const catchUp = () => {
    if (stopped) return;
    const events: LiveEvent[] = [];
    if (current.state && JSON.stringify(current.state) !== shownState) {
      shownState = JSON.stringify(current.state);
      events.push({ name: 'state', data: current.state });
    }
    for (const message of current.messages.slice(next)) {
      if (seqOf(message.messageId) <= afterSeq || (!options.notes && !visibleToVisitor(message))) continue;
      events.push({ name: 'message', id: String(seqOf(message.messageId)), data: toLiveMessage(message) });
    }
    next = current.messages.length;
    if (current.typing && current.typing.until !== shownTyping) {
      shownTyping = current.typing.until;
      events.push({ name: 'typing', data: { name: current.typing.name } });
    }
    if (events.length > 0) deliver(events);
  };
  const unsubscribe = current.subscribe(catchUp);
  catchUp();
  return () => {
    stopped = true;
    unsubscribe();
  };
}
