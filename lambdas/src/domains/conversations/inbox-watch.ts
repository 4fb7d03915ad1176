import type { Deps } from '../../infra/deps';
import { SharedPoll, sharedPolls } from '../../infra/shared-poll';
import { toSummary, type ConversationSummary } from './agent-conversations';
import { onInboxChange } from './inbox-feed';
import { queryInboxChangesAfter, readInboxHead, type InboxChange } from './inbox-feed-repository';
import { markerOf, readMarkersOf } from './read-marker-repository';
import { unreadAfter } from './read-markers';
import { readConversationMetas, type ConversationMetaItem } from './repository';

/**
 * The workspace-wide inbox stream (issue 29): what changed in a workspace's conversations (inbox-feed.ts), read once
 * per process and tick however many teammates follow it, and sent to each as the conversations' current summaries
 * with their own unread counts.
 */

/** An event of the inbox stream; every one carries `id:` (the feed's seq) to resume after. */
export type InboxEvent =
  | { name: 'ready'; id: string; data: { seq: number } }
  | { name: 'conversation'; id: string; data: ConversationSummary }
  | { name: 'removed'; id: string; data: { conversationId: string; agentId: string | null } };

/** Who follows: the teammate whose unread counts and read markers they see (none for a key), and one agent or all. */
export interface InboxFollower {
  readerId: string | undefined;
  agentId: string | undefined;
}

const PAGE = 100;
/** The changes a watch keeps for streams that join or catch up; older ones are read from the store. */
const KEEP = 500;
/** A stream resumed further back than this starts over (`ready`: the inbox reads its list again). */
const MAX_REPLAY = 500;

/** The changes after `afterSeq` up to `upTo`, in order; undefined when some are missing (expired, or lost in a crash). */
async function readChangesBetween(deps: Deps, workspaceId: string, afterSeq: number, upTo: number): Promise<InboxChange[] | undefined> {
  const changes: InboxChange[] = [];
  for (let cursor = afterSeq; cursor < upTo;) {
    const page = (await queryInboxChangesAfter(deps, workspaceId, cursor, PAGE)).filter((change) => change.seq <= upTo);
    if (page[0]?.seq !== cursor + 1 || page.some((change, index) => change.seq !== cursor + 1 + index)) return undefined;
    changes.push(...page);
    cursor = page.at(-1)!.seq;
  }
  return changes;
}

/**
 * The shared poll of a workspace's feed (infra/shared-poll.ts): it reads the changes after the last one it took,
 * then, for the conversations they name, their `meta` items and the markers of the teammates following here, each in
 * one batch; the changes are kept (the last KEEP) for the streams to read in order.
 */
class InboxWatch extends SharedPoll {
  /** The last change taken; undefined until the feed's head was read. */
  cursor: number | undefined;
  /** The kept changes, in order without a gap, after `from`. */
  readonly changes: InboxChange[] = [];
  from = 0;
  readonly metas = new Map<string, ConversationMetaItem | undefined>();
  readonly markers = new Map<string, number>();
  /** The teammates following here, with how many of their streams. */
  private readonly readers = new Map<string, number>();

  constructor(
    private readonly deps: Deps,
    private readonly workspaceId: string,
    onIdle: () => void,
  ) {
    super({ what: 'inbox', key: workspaceId }, (listener) => onInboxChange(workspaceId, listener), onIdle);
  }

  addReader(readerId: string): () => void {
    this.readers.set(readerId, (this.readers.get(readerId) ?? 0) + 1);
    return () => {
      const left = (this.readers.get(readerId) ?? 1) - 1;
      if (left > 0) this.readers.set(readerId, left);
      else this.readers.delete(readerId);
    };
  }

  protected async poll(): Promise<boolean> {
    if (this.cursor === undefined) {
      this.cursor = this.from = await readInboxHead(this.deps, this.workspaceId);
      return true;
    }
    const page = this.inOrder(await queryInboxChangesAfter(this.deps, this.workspaceId, this.cursor, PAGE));
    if (page.length === 0) return false;
    const ids = [...new Set(page.map((change) => change.conversationId))];
    const [metas, markers] = await Promise.all([
      readConversationMetas(this.deps, ids),
      readMarkersOf(
        this.deps,
        ids.flatMap((conversationId) => [...this.readers.keys()].map((userId) => ({ conversationId, userId }))),
      ),
    ]);
    for (const id of ids) this.metas.set(id, metas.get(id));
    this.mergeMarkers(markers);
    this.changes.push(...page);
    this.cursor = page.at(-1)!.seq;
    this.trim();
    return true;
  }

  /** Markers only move forward: the greater of what is known and what was read. */
  mergeMarkers(markers: Map<string, number>): void {
    for (const [key, seq] of markers) this.markers.set(key, Math.max(seq, this.markers.get(key) ?? 0));
  }

  /** The changes that continue the feed without a gap; a gap is waited for, then skipped. */
  private inOrder(page: InboxChange[]): InboxChange[] {
    const taken: InboxChange[] = [];
    let next = this.cursor! + 1;
    for (const change of page) {
      if (change.seq > next && !this.gapExpired()) break;
      this.gapClosed();
      taken.push(change);
      next = change.seq + 1;
    }
    return taken;
  }

  /** Keeps the last KEEP changes, and what is known of the conversations they name. */
  private trim(): void {
    const dropped = this.changes.splice(0, Math.max(0, this.changes.length - KEEP));
    if (dropped.length === 0) return;
    this.from = dropped.at(-1)!.seq;
    const kept = new Set(this.changes.map((change) => change.conversationId));
    for (const id of this.metas.keys()) if (!kept.has(id)) this.metas.delete(id);
    for (const key of this.markers.keys()) if (!kept.has(key.slice(0, key.lastIndexOf('#')))) this.markers.delete(key);
  }
}

const watches = sharedPolls<InboxWatch>();

/** What a follower sees of a batch of changes: each conversation once, at its last change, in the order of those. */
function eventsOf(
  changes: InboxChange[],
  follower: InboxFollower,
  metas: Map<string, ConversationMetaItem | undefined>,
  markers: Map<string, number>,
): InboxEvent[] {
  const last = new Map<string, InboxChange>();
  for (const change of changes) {
    if (change.readerId && change.readerId !== follower.readerId) continue;
    last.delete(change.conversationId);
    last.set(change.conversationId, change);
  }
  const events: InboxEvent[] = [];
  for (const change of last.values()) {
    const meta = metas.get(change.conversationId);
    if (follower.agentId && meta && meta.agentId !== follower.agentId) continue;
    const id = String(change.seq);
    if (!meta || meta.erasedAt) {
      events.push({ name: 'removed', id, data: { conversationId: change.conversationId, agentId: meta?.agentId ?? null } });
      continue;
    }
    const summary = toSummary(meta);
    const unread = follower.readerId === undefined ? null : unreadAfter(summary.messages, markers.get(markerOf(change.conversationId, follower.readerId)) ?? 0);
    events.push({ name: 'conversation', id, data: { ...summary, unread } });
  }
  return events;
}

/**
 * Follows a workspace's inbox: after `afterSeq` (a resumed stream's Last-Event-ID) each change in order, none twice,
 * none missed; without one, or when the changes after it are no longer kept, a `ready` event first, from where the
 * follower should read its list again. Returns the way to stop following.
 */
export function followInbox(
  deps: Deps,
  workspaceId: string,
  afterSeq: number | undefined,
  follower: InboxFollower,
  deliver: (events: InboxEvent[]) => void,
): () => void {
  const watch = watches.follow(workspaceId, (forget) => new InboxWatch(deps, workspaceId, forget));
  const dropReader = follower.readerId ? watch.addReader(follower.readerId) : () => undefined;
  let position = afterSeq;
  // A resumed teammate's markers on the kept changes are read once (the watch reads them for later changes).
  let markersLoaded = afterSeq === undefined;
  let catchingUp = false;
  let stopped = false;

  const startOver = (seq: number) => {
    position = seq;
    deliver([{ name: 'ready', id: String(seq), data: { seq } }]);
  };
  /** Reads from the store what the watch no longer keeps (or never read), with this follower's markers. */
  const catchUp = async (from: number) => {
    const upTo = watch.from;
    if (upTo - from > MAX_REPLAY) return startOver(watch.cursor!);
    const older = from < upTo ? await readChangesBetween(deps, workspaceId, from, upTo) : [];
    if (older === undefined) return startOver(watch.cursor!);
    const kept = watch.changes.filter((change) => change.seq > from);
    const ids = [...new Set([...older, ...kept].map((change) => change.conversationId))];
    const [metas, markers] = await Promise.all([
      older.length ? readConversationMetas(deps, [...new Set(older.map((change) => change.conversationId))]) : new Map<string, ConversationMetaItem>(),
      follower.readerId
        ? readMarkersOf(
            deps,
            ids.map((conversationId) => ({ conversationId, userId: follower.readerId! })),
          )
        : new Map<string, number>(),
    ]);
    watch.mergeMarkers(markers);
    if (stopped) return;
    const events = eventsOf(older, follower, metas, watch.markers);
    if (events.length) deliver(events);
    if (older.length) position = older.at(-1)!.seq;
  };

  const onNews = () => {
    if (stopped || catchingUp || watch.cursor === undefined) return;
    if (position === undefined) return startOver(watch.cursor);
    if (position < watch.from || (follower.readerId && !markersLoaded)) {
      catchingUp = true;
      markersLoaded = true;
      void catchUp(position)
        .catch(() => startOver(watch.cursor!))
        .finally(() => {
          catchingUp = false;
          onNews();
        });
      return;
    }
    const fresh = watch.changes.filter((change) => change.seq > position!);
    if (fresh.length === 0) return;
    position = fresh.at(-1)!.seq;
    const events = eventsOf(fresh, follower, watch.metas, watch.markers);
    if (events.length) deliver(events);
  };
  const unsubscribe = watch.subscribe(onNews);
  onNews();
  return () => {
    stopped = true;
    unsubscribe();
    dropReader();
  };
}
