import { signal } from '@preact/signals';
import { useEffect } from 'preact/hooks';
import { get } from './api/client';

/** How often the shell counts what the signed-in teammate has not read. */
const COUNT_EVERY_MS = 10_000;
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
 * Counts the unread entries of every agent of `workspaceId` now and every COUNT_EVERY_MS while the shell is shown
 * (conversations/list `state=waiting` and `state=mine`, each summary's `unread`); a failed count keeps the last one.
 */
export function useUnreadCount(workspaceId: string): void {
  useEffect(() => {
    let current = true;
    const count = async () => {
      const { agents } = await get('agents/list');
      const pages = await Promise.all(agents.flatMap((agent) => (['waiting', 'mine'] as const).map((state) => get('conversations/list', { agent_id: agent.id, state, limit: COUNTED }))));
      if (current) unreadCount.value = pages.reduce((sum, page) => sum + page.conversations.reduce((unread, conversation) => unread + (conversation.unread ?? 0), 0), 0);
    };
    const countQuietly = () => void count().catch(() => undefined);
    countQuietly();
    const timer = setInterval(countQuietly, COUNT_EVERY_MS);
    // The inbox marked something read: count again at once rather than at the next tick.
    addEventListener(UNREAD_CHANGED, countQuietly);
    return () => {
      current = false;
      clearInterval(timer);
      removeEventListener(UNREAD_CHANGED, countQuietly);
      unreadCount.value = undefined;
    };
  }, [workspaceId]);
}

/** The window event the inbox dispatches after it moved a read marker. */
export const UNREAD_CHANGED = 'dashboard:unread-changed';
