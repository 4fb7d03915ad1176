import type { LiveMessage, LiveState, LiveStreamEvents } from '@service/shared/live-conversation';
import type { Deps } from '../../infra/deps';
import { logger } from '../../infra/logger';
import { onConversation } from './conversation-signal';
import { visibleToVisitor } from './conversations';
import { liveStateOf } from './conversation-state';
import { queryMessagesAfter, readConversationMeta, seqOf, type ConversationMetaItem, type StoredMessage } from './repository';

/** One event of a live stream: a `message` has its seq as `id`; `state` and `typing` have none. */
export type LiveEvent = { [N in keyof LiveStreamEvents]: { name: N; id?: string; data: LiveStreamEvents[N] } }[keyof LiveStreamEvents];

/** The poll's pace: soon after news, slower while the conversation is quiet (one read, two when the transcript grew). */
const POLL_MIN_MS = 100;
const POLL_MAX_MS = 1_000;
const PAGE = 100;
/**
 * A position whose entry is not there while later ones are: a writer took it and has not stored it yet (or crashed
 * between the two). The stream waits this long for it, keeping order, then goes on without it.
 */
const GAP_WAIT_MS = 5_000;

export const toLiveMessage = (message: StoredMessage): LiveMessage => ({
  seq: seqOf(message.messageId),
  role: message.role,
  text: message.content,
  at: message.createdAt,
  author: message.author ?? null,
  event: message.event ?? null,
});

/**
 * One shared reader of a conversation per process, however many streams follow it: it polls the store (where any
 * process writes), wakes early on an in-process signal, and keeps the entries read so far, in order and without a
 * gap, for every stream. It stops when nobody follows.
 */
class ConversationWatch {
  readonly messages: StoredMessage[] = [];
  state: LiveState | undefined;
  typing: { name: string; until: number } | undefined;
  private readonly listeners = new Set<() => void>();
  private cursor = 0;
  private gapSince: number | undefined;
  private wake?: () => void;
  private woken = false;
  private running = false;

  constructor(
    private readonly deps: Deps,
    private readonly conversationId: string,
    private readonly onIdle: () => void,
  ) {}

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    if (!this.running) void this.loop();
    return () => {
      this.listeners.delete(listener);
      if (this.listeners.size === 0) this.wake?.();
    };
  }

  private async loop(): Promise<void> {
    this.running = true;
    const stopSignal = onConversation(this.conversationId, () => {
      this.woken = true;
      this.wake?.();
    });
    let delay = POLL_MIN_MS;
    try {
      while (this.listeners.size > 0) {
        const changed = await this.poll().catch((error: unknown) => (logger.warn('conversation stream poll failed', { conversationId: this.conversationId, error }), false));
        if (changed) this.listeners.forEach((listener) => listener());
        delay = changed ? POLL_MIN_MS : Math.min(POLL_MAX_MS, delay * 2);
        if (this.listeners.size === 0) break;
        if (this.woken) {
          this.woken = false;
          continue;
        }
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, this.gapSince === undefined ? delay : POLL_MIN_MS);
          this.wake = () => (clearTimeout(timer), resolve());
        });
        this.wake = undefined;
        this.woken = false;
      }
    } finally {
      stopSignal();
      this.running = false;
      this.onIdle();
    }
  }

  /** Reads what is new; whether anything a stream shows changed. */
  private async poll(): Promise<boolean> {
    const meta = await readConversationMeta(this.deps, this.conversationId);
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
      this.gapSince = undefined;
      this.messages.push(message);
      this.cursor = seq;
    }
    // The positions up to the count are taken; an entry missing at the end is a gap too.
    if (count > this.cursor && this.gapExpired()) {
      this.cursor = page.length === 0 ? count : this.cursor;
      this.gapSince = undefined;
    }
  }

  private gapExpired(): boolean {
    const now = Date.now();
    this.gapSince ??= now;
    return now - this.gapSince >= GAP_WAIT_MS;
  }
}

const watches = new Map<string, ConversationWatch>();

/**
 * Follows a conversation: `deliver` gets the current `state` (and a teammate typing) at once, then the entries after
 * position `afterSeq` in order, and `state`/`typing` whenever they change. `notes`: whether internal notes are shown
 * (teammates only). Returns the way to stop following.
 */
export function followConversation(deps: Deps, conversationId: string, afterSeq: number, options: { notes: boolean }, deliver: (events: LiveEvent[]) => void): () => void {
  let watch = watches.get(conversationId);
  if (!watch) {
    const created: ConversationWatch = new ConversationWatch(deps, conversationId, () => watches.get(conversationId) === created && watches.delete(conversationId));
    watches.set(conversationId, (watch = created));
  }
  const current = watch;
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
