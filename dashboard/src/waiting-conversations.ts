import { signal } from '@preact/signals';
import { useEffect } from 'preact/hooks';
import { get } from './api/client';

/** How often the shell counts the conversations that wait for a teammate. */
const COUNT_EVERY_MS = 10_000;
/** One page of each agent's waiting conversations is counted: past it the count is at least this. */
const COUNTED = 100;

/** The workspace's conversations that wait for a teammate (people have them, nobody claimed them); undefined until counted. */
export const waitingConversations = signal<number | undefined>(undefined);

/** The browser tab's title: the screen's name, led by the waiting count when some wait ("(2) Conversations · Dashboard"). */
export const pageTitle = (screen: string, waiting: number | undefined): string => `${waiting ? `(${waiting}) ` : ''}${screen} · Dashboard`;

/**
 * Counts the waiting conversations of every agent of `workspaceId` now and every COUNT_EVERY_MS while the shell is
 * shown (conversations/list `state=waiting`); a failed count keeps the last one.
 */
export function useWaitingConversations(workspaceId: string): void {
  useEffect(() => {
    let current = true;
    const count = async () => {
      const { agents } = await get('agents/list');
      const pages = await Promise.all(agents.map((agent) => get('conversations/list', { agent_id: agent.id, state: 'waiting', limit: COUNTED })));
      if (current) waitingConversations.value = pages.reduce((sum, page) => sum + page.conversations.length, 0);
    };
    const countQuietly = () => void count().catch(() => undefined);
    countQuietly();
    const timer = setInterval(countQuietly, COUNT_EVERY_MS);
    return () => {
      current = false;
      clearInterval(timer);
      waitingConversations.value = undefined;
    };
  }, [workspaceId]);
}
