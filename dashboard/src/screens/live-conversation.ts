import { useCallback, useEffect, useState } from 'preact/hooks';
import { LIVE_LIMITS, type LiveMessage, type LiveState } from '@service/shared/live-conversation';
import { get } from '../api/client';
import { followEventStream } from '../api/event-stream';
import type { DataAt } from '../api/types';

export type ConversationSummary = DataAt<'conversations/get'>['conversation'];
export type TranscriptEntry = LiveMessage & { stopped?: boolean };

export interface LiveConversation {
  summary: ConversationSummary | undefined;
  /** The transcript so far, in order, each entry once. */
  messages: TranscriptEntry[];
  /** A teammate typing (their name; null for an API key), shown for a few seconds unless their message comes. */
  typing: string | null | undefined;
  error: unknown;
  /** Read the summary again (after an action changed it, before its `state` event arrives). */
  refresh(): void;
}

/**
 * One conversation as the inbox shows it, kept current: its summary from conversations/get (read again whenever who
 * handles it changes) and its transcript from conversations/stream, which sends every entry from the first and then
 * each new one as it is stored; a broken connection resumes after the last entry (event-stream.ts).
 */
export function useLiveConversation(conversationId: string): LiveConversation {
  const [summary, setSummary] = useState<ConversationSummary>();
  const [messages, setMessages] = useState<TranscriptEntry[]>([]);
  const [typing, setTyping] = useState<LiveConversation['typing']>();
  const [error, setError] = useState<unknown>();
  const refresh = useCallback(() => {
    get('conversations/get', { conversation_id: conversationId }).then(
      (data) => setSummary(data.conversation),
      (caught: unknown) => setError(caught),
    );
  }, [conversationId]);

  useEffect(() => {
    setSummary(undefined);
    setMessages([]);
    setTyping(undefined);
    setError(undefined);
    refresh();
    const stop = new AbortController();
    let typingTimer: ReturnType<typeof setTimeout> | undefined;
    void followEventStream(
      { path: 'conversations/stream', query: { conversation_id: conversationId } },
      (event) => {
        if (event.event === 'message') {
          const message = JSON.parse(event.data) as TranscriptEntry;
          setMessages((current) => (current.some((known) => known.seq >= message.seq) ? current : [...current, message]));
          if (message.role === 'teammate') setTyping(undefined);
        } else if (event.event === 'state') {
          // The live state's `email` is the widget's fallback step, not the summary's e-mail channel fields.
          const { email: _fallback, ...hands } = JSON.parse(event.data) as LiveState;
          setSummary((current) => current && { ...current, ...hands });
          refresh();
        } else if (event.event === 'typing') {
          setTyping((JSON.parse(event.data) as { name: string | null }).name);
          clearTimeout(typingTimer);
          typingTimer = setTimeout(() => setTyping(undefined), LIVE_LIMITS.typingMs);
        }
      },
      stop.signal,
    );
    return () => {
      stop.abort();
      clearTimeout(typingTimer);
    };
  }, [conversationId, refresh]);

  return { summary, messages, typing, error, refresh };
}
