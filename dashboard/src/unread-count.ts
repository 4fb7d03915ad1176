import { signal } from '@preact/signals';
import { useEffect } from 'preact/hooks';
import { get } from './api/client';
import { concerns, FALLBACK_MS, inboxLive, onInboxChange } from './inbox-stream';

/** One page of each agent's conversations per tab is counted. */
const COUNTED = 100;

/**
 * The transcript entries the signed-in teammate has not read (after their read marker, conversations/read) in the
 * conversations that concern them: those that wait for a teammate and those they claimed; undefined until counted.
 */
export const unreadCount = signal<number | undefined>(undefined);

/** The browser tab's title: the screen's name, led by the unread count when there is one ("(2) Conversations · Dashboard"). */
export const pageTitle = (screen: string, unread: number | undefined): string => `${unread ? `(${unread}) ` : ''}${screen} · Dashboard`;

/**
 * Counts the unread entries of every agent of `workspaceId` (conversations/list `state=waiting` and `state=mine`,
 * each summary's `unread`) when the inbox stream starts, then keeps the count from what it pushes: each conversation's
 * unread count for the teammate `me` while it concerns them. While the stream is down it counts every FALLBACK_MS; a
 * failed count keeps the last one.
 */
export function useUnreadCount(workspaceId: string, me: string): void {
  useEffect(() => {
    let current = true;
    let unread = new Map<string, number>();
    const show = () => (unreadCount.value = [...unread.values()].reduce((sum, count) => sum + count, 0));
    const count = async () => {
      const { agents } = await get('agents/list');
      const pages = await Promise.all(
        agents.flatMap((agent) => (['waiting', 'mine'] as const).map((state) => get('conversations/list', { agent_id: agent.id, state, limit: COUNTED }))),
      );
      if (!current) return;
      unread = new Map(pages.flatMap((page) => page.conversations.map((conversation) => [conversation.id, conversation.unread ?? 0] as const)));
      show();
    };
    const countQuietly = () => void count().catch(() => undefined);
    countQuietly();
    const stopListening = onInboxChange((change) => {
      if (change.kind === 'ready') return countQuietly();
      const id = change.kind === 'conversation' ? change.conversation.id : change.conversationId;
      if (change.kind === 'conversation' && concerns(change.conversation, me)) unread.set(id, change.conversation.unread ?? 0);
      else unread.delete(id);
      show();
    });
    const timer = setInterval(() => inboxLive.value || countQuietly(), FALLBACK_MS);
    return () => {
      current = false;
      stopListening();
      clearInterval(timer);
      unreadCount.value = undefined;
    };
  }, [workspaceId, me]);
}
