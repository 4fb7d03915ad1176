import { useCallback, useEffect, useState } from 'preact/hooks';
import { LIVE_LIMITS, type LiveMessage, type LiveState } from '@service/shared/live-conversation';
import { get } from '../api/client';
import { followEventStream } from '../api/event-stream';
import type { DataAt } from '../api/types';

export type ConversationSummary = DataAt<'conversations/get'>['conversation'];
export type TranscriptEntry = LiveMessage & { stopped?: boolean };
/** The inbound mail an entry was made of (conversations/get only: the stream sends the entry, the mail is read with the list). */
export type MailOfMessage = NonNullable<DataAt<'conversations/get'>['messages'][number]['mail']>;

export interface LiveConversation {
  summary: ConversationSummary | undefined;
  /** The transcript so far, in order, each entry once. */
  messages: TranscriptEntry[];
  /** The inbound mails of entries, by seq. */
  mails: ReadonlyMap<number, MailOfMessage>;
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
  const [mails, setMails] = useState<ReadonlyMap<number, MailOfMessage>>(new Map());
  const [typing, setTyping] = useState<LiveConversation['typing']>();
  const [error, setError] = useState<unknown>();
  const refresh = useCallback(() => {
    get('conversations/get', { conversation_id: conversationId }).then(
      (data) => {
        setSummary(data.conversation);
        setMails(new Map(data.messages.flatMap((message) => (message.mail ? [[message.seq, message.mail] as const] : []))));
      },
      (caught: unknown) => setError(caught),
    );
  }, [conversationId]);

  useEffect(() => {
    setSummary(undefined);
    setMessages([]);
    setMails(new Map());
    setTyping(undefined);
    setError(undefined);
    refresh();
    const stop = new AbortController();
    let typingTimer: ReturnType<typeof setTimeout> | undefined;
    let mailTimer: ReturnType<typeof setTimeout> | undefined;
    void followEventStream(
      { path: 'conversations/stream', query: { conversation_id: conversationId } },
      (event) => {
        if (event.event === 'message') {
          const message = JSON.parse(event.data) as TranscriptEntry;
          setMessages((current) => (current.some((known) => known.seq >= message.seq) ? current : [...current, message]));
          if (message.role === 'teammate') setTyping(undefined);
          // A customer's entry or a note may be a mail: its mail as sent comes with the transcript, read once for a burst
          // (the first entries of the stream come together).
          if (message.role === 'user' || message.role === 'note') {
            clearTimeout(mailTimer);
            mailTimer = setTimeout(refresh, 150);
          }
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
      clearTimeout(mailTimer);
    };
  }, [conversationId, refresh]);

  return { summary, messages, mails, typing, error, refresh };
}
