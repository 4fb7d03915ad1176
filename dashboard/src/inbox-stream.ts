import { signal } from '@preact/signals';
import { useEffect } from 'preact/hooks';
import type { EventSourceMessage } from 'eventsource-parser';
import { followEventStream } from './api/event-stream';
import type { DataAt } from './api/types';

export type InboxConversation = DataAt<'conversations/list'>['conversations'][number];

/**
 * What the workspace's inbox stream (conversations/inbox_stream) pushed: a conversation as it is now (new, a new
 * entry, a change of hands, the teammate's own unread count), one erased, or `ready`: read the lists again (the
 * stream started, or started over), the changes after it follow.
 */
export type InboxChange = { kind: 'conversation'; conversation: InboxConversation } | { kind: 'removed'; conversationId: string } | { kind: 'ready' };

/** Whether the stream is connected: while it is not, the inbox and the unread count fall back to reading slowly. */
export const inboxLive = signal(false);
/** How often the inbox and the unread count read again while the stream is down. */
export const FALLBACK_MS = 30_000;

const listeners = new Set<(change: InboxChange) => void>();

/** Hears every change the stream pushes; returns the way to stop. */
export function onInboxChange(listener: (change: InboxChange) => void): () => void {
  listeners.add(listener);
  return () => void listeners.delete(listener);
}

const changeOf = (event: EventSourceMessage): InboxChange | undefined => {
  if (event.event === 'ready') return { kind: 'ready' };
  if (event.event === 'conversation') return { kind: 'conversation', conversation: JSON.parse(event.data) as InboxConversation };
  if (event.event === 'removed') return { kind: 'removed', conversationId: (JSON.parse(event.data) as { conversation_id: string }).conversation_id };
  return undefined;
};

/** Follows the workspace's inbox stream while the shell is shown (one connection for every screen). */
export function useInboxStream(workspaceId: string): void {
  useEffect(() => {
    const stop = new AbortController();
    void followEventStream(
      { path: 'conversations/inbox_stream', query: {} },
      (event) => {
        const change = changeOf(event);
        if (change) listeners.forEach((listener) => listener(change));
      },
      stop.signal,
      () => false,
      (connected) => (inboxLive.value = connected),
    );
    return () => {
      stop.abort();
      inboxLive.value = false;
    };
  }, [workspaceId]);
}

/** Whether the teammate `me` is asked to read it: it waits for a teammate, or they claimed it. */
export const concerns = (conversation: InboxConversation, me: string): boolean =>
  conversation.handler === 'people' && (!conversation.assignee || conversation.assignee.id === me);
