import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { CONVERSATION_LIST_STATES, type ConversationListState } from '@service/shared/live-conversation';
import { get } from '../api/client';
import type { DataAt } from '../api/types';
import { ErrorNote, Loading, RoleNote, Screen } from '../components';
import { useAction, useLoad, useRefreshWhile } from '../hooks';
import { FALLBACK_MS, inboxLive, onInboxChange, type InboxConversation } from '../inbox-stream';
import { useApp } from '../session';
import { AgentTabs } from './agent-tabs';
import { ConversationRow } from './conversation-row';
import { ConversationView } from './conversation-view';
import { AvailabilitySection } from './availability';
import { erasureSummary, type Erasure } from './visitor-data';
import { VisitorPrivacy } from './visitor-privacy';

const PAGE = 50;
/** The tabs' counts come from one page each: past it the count says "100+". */
const COUNTED = 100;
/** How soon after a pushed change of tabs (a new conversation, a change of hands) the tabs' counts are read again. */
const RECOUNT_AFTER_MS = 500;
type Page = DataAt<'conversations/list'>;

const TAB_LABELS: Record<ConversationListState, string> = { waiting: 'Waiting', mine: 'Mine', all: 'All', closed: 'Closed' };

/**
 * The inbox of an agent's widget conversations: tabs Waiting (people have it, nobody claimed it), Mine, All and
 * Closed with their counts, the tab's conversations, and the one opened (conversation-view.tsx).
 */
export default function Conversations({ params }: { params: string[] }) {
  const agentId = params[0]!;
  const [tab, setTab] = useState<ConversationListState>('waiting');
  const [open, setOpen] = useState<string | null>(null);
  const [erased, setErased] = useState<Erasure | null>(null);
  const counts = useLoad(() => tabCounts(agentId), [agentId]);
  const list = useLoad(() => get('conversations/list', { agent_id: agentId, limit: PAGE, state: tab }), [agentId, tab]);
  const { reload: reloadCounts } = counts;
  const { reload: reloadList } = list;
  const refresh = useCallback(() => {
    reloadCounts();
    reloadList();
  }, [reloadCounts, reloadList]);
  // The inbox stream pushes changes (inbox-stream.ts); the list is read again only when it (re)starts or is down.
  useRefreshWhile(!inboxLive.value, refresh, FALLBACK_MS);
  const pushed = usePushedRows(agentId, tab, useApp().session.user.id, list.data, refresh, reloadCounts);
  const pages = usePages(agentId, tab, pushed);
  return (
    <Screen
      title="Conversations"
      intro="The agent's conversations, in the widget and by e-mail. Claim one that waits for a person, reply, leave internal notes, hand it back to the agent or close it."
    >
      <AgentTabs agentId={agentId} current="conversations" />
      <RoleNote permission="conversations:reply" action="claiming, replying to or closing a conversation" />
      <AvailabilitySection />
      <div class="tabs" role="tablist" aria-label="Inbox">
        {CONVERSATION_LIST_STATES.map((state) => (
          <button key={state} type="button" role="tab" class="quiet" aria-selected={state === tab} onClick={() => setTab(state)}>
            {TAB_LABELS[state]} <span class="count">{counts.data?.[state] ?? '…'}</span>
          </button>
        ))}
      </div>
      <div role="tabpanel" aria-label={TAB_LABELS[tab]}>
        {list.loading && !list.data ? <Loading what="conversations" /> : null}
        <ErrorNote error={list.error} />
        {pushed && pushed.conversations.length === 0 ? <p class="muted">No conversations here.</p> : null}
        <ul class="conversations">
          {[...(pushed?.conversations ?? []), ...pages.later].map((conversation) => (
            <li key={conversation.id} class="card">
              <ConversationRow
                conversation={conversation}
                open={open === conversation.id}
                onToggle={() => setOpen(open === conversation.id ? null : conversation.id)}
              />
            </li>
          ))}
        </ul>
        {pages.nextCursor ? (
          <button type="button" disabled={pages.more.busy} onClick={() => void pages.more.run()}>
            {pages.more.busy ? 'Loading…' : 'Load more'}
          </button>
        ) : null}
        <ErrorNote error={pages.more.error} />
      </div>
      {/* The opened conversation stays open when a change moves it to another tab (claimed, handed back, closed). */}
      {open ? (
        <ConversationView
          key={open}
          conversationId={open}
          onChanged={refresh}
          onErased={(erasure) => {
            setOpen(null);
            setErased(erasure);
            refresh();
          }}
        />
      ) : null}
      {erased ? (
        <p class="note" role="status">
          {erasureSummary(erased)}
        </p>
      ) : null}
      <VisitorPrivacy reloadKey={erased?.id ?? ''} />
    </Screen>
  );
}

/** Whether a tab lists the conversation (conversations/list `state`, for the teammate `me`). */
function listedUnder(tab: ConversationListState, conversation: InboxConversation, me: string): boolean {
  switch (tab) {
    case 'all':
      return true;
    case 'waiting':
      return conversation.handler === 'people' && !conversation.assignee;
    case 'mine':
      return conversation.handler === 'people' && conversation.assignee?.id === me;
    case 'closed':
      return conversation.handler === 'closed';
  }
}

/**
 * The tab's first page kept current from the inbox stream: a pushed conversation of the agent replaces its row, joins
 * the tab in its place (most recently started first) or leaves it; an erased one leaves. A new conversation or a change
 * of hands has the tabs' counts read again; `ready` (the stream started over) reads the list again.
 */
function usePushedRows(
  agentId: string,
  tab: ConversationListState,
  me: string,
  loaded: Page | undefined,
  refresh: () => void,
  recount: () => void,
): Page | undefined {
  const [page, setPage] = useState(loaded);
  useEffect(() => setPage(loaded), [loaded]);
  const known = useRef(new Map<string, InboxConversation>());
  useEffect(() => {
    known.current = new Map(loaded?.conversations.map((conversation) => [conversation.id, conversation]));
  }, [loaded]);
  useEffect(() => {
    let recountTimer: ReturnType<typeof setTimeout> | undefined;
    const recountSoon = () => {
      clearTimeout(recountTimer);
      recountTimer = setTimeout(recount, RECOUNT_AFTER_MS);
    };
    const stop = onInboxChange((change) => {
      if (change.kind === 'ready') return refresh();
      const id = change.kind === 'conversation' ? change.conversation.id : change.conversationId;
      if (change.kind === 'conversation' && change.conversation.agent_id !== agentId) return;
      const before = known.current.get(id);
      const after = change.kind === 'conversation' ? change.conversation : undefined;
      if (!before || !after || before.handler !== after.handler || before.assignee?.id !== after.assignee?.id) recountSoon();
      if (after) known.current.set(id, after);
      else known.current.delete(id);
      setPage((current) => {
        if (!current) return current;
        const others = current.conversations.filter((conversation) => conversation.id !== id);
        if (!after || !listedUnder(tab, after, me)) return { ...current, conversations: others };
        // Past the page's last row it belongs to a later page (Load more), unless the page is the whole list.
        const last = current.conversations.at(-1);
        if (!before && current.next_cursor && last && after.started_at < last.started_at) return current;
        return { ...current, conversations: [...others, after].sort((a, b) => b.started_at.localeCompare(a.started_at)) };
      });
    });
    return () => {
      stop();
      clearTimeout(recountTimer);
    };
  }, [agentId, tab, me, refresh, recount]);
  return page;
}

/** How many conversations each tab has (one page of COUNTED each). */
async function tabCounts(agentId: string): Promise<Record<ConversationListState, string>> {
  const pages = await Promise.all(CONVERSATION_LIST_STATES.map((state) => get('conversations/list', { agent_id: agentId, limit: COUNTED, state })));
  return Object.fromEntries(
    CONVERSATION_LIST_STATES.map((state, index) => [state, `${pages[index]!.conversations.length}${pages[index]!.next_cursor ? '+' : ''}`]),
  ) as Record<ConversationListState, string>;
}

/**
 * The pages after the first (Load more), with the cursor of the next one; another tab starts over. The first page is
 * read again every few seconds: a conversation it now shares with a later page is listed once.
 */
function usePages(agentId: string, tab: ConversationListState, first: Page | undefined) {
  const [later, setLater] = useState<Page | null>(null);
  useEffect(() => setLater(null), [agentId, tab]);
  const nextCursor = later ? later.next_cursor : (first?.next_cursor ?? null);
  const more = useAction(async () => {
    if (!nextCursor) return;
    const page = await get('conversations/list', { agent_id: agentId, limit: PAGE, cursor: nextCursor, state: tab });
    setLater((previous) => ({ conversations: [...(previous?.conversations ?? []), ...page.conversations], next_cursor: page.next_cursor }));
  });
  const firstIds = new Set(first?.conversations.map((conversation) => conversation.id));
  return { later: (later?.conversations ?? []).filter((conversation) => !firstIds.has(conversation.id)), nextCursor, more };
}
