import { useEffect, useRef, useState } from 'preact/hooks';
import { LIVE_LIMITS, MARKER_LABEL } from '@service/shared/live-conversation';
import { post } from '../api/client';
import { ActionButton, ActionForm, ErrorNote, Loading } from '../components';
import { CHANNEL_LABEL, HANDOFF_REASON, whoOf } from './conversation-row';
import { SaveAsScenario } from './save-as-scenario';
import { useAction } from '../hooks';
import { when } from '../format';
import { useApp } from '../session';
import { useLiveConversation, type ConversationSummary, type TranscriptEntry } from './live-conversation';
import { VisitorData, type Erasure } from './visitor-data';
import { MailMessage } from './mail-message';
import type { MailOfMessage } from './live-conversation';

/** How often typing in the reply box tells the visitor (the widget shows it for a few seconds each time). */
const TYPING_EVERY_MS = 3_000;

/**
 * One conversation in the inbox: who handles it, the agent's handoff summary, the visitor, the live transcript (notes
 * marked internal), and what a teammate does with it. Every text is rendered as text, never as markup.
 */
export function ConversationView({
  conversationId,
  onChanged,
  onErased,
}: {
  conversationId: string;
  onChanged: () => void;
  onErased: (erasure: Erasure) => void;
}) {
  const live = useLiveConversation(conversationId);
  useReadMarker(conversationId, live.messages.at(-1)?.seq);
  if (live.error) return <ErrorNote error={live.error} />;
  if (!live.summary) return <Loading what="the conversation" />;
  const customer = live.summary.email?.address ?? 'Visitor';
  return (
    <section class="conversation" aria-label="Conversation">
      <h2 class="conversation-title">
        <span class={`badge channel ${live.summary.channel}`}>{CHANNEL_LABEL[live.summary.channel]}</span>{' '}
        {live.summary.email ? live.summary.email.subject || '(no subject)' : whoOf(live.summary)}
      </h2>
      <About summary={live.summary} />
      <ol class="transcript" aria-label="Transcript" aria-live="polite">
        {live.messages.map((message) => (
          <Entry
            key={message.seq}
            message={message}
            customer={customer}
            mail={live.mails.get(message.seq)}
            conversationId={conversationId}
            onDecided={live.refresh}
          />
        ))}
      </ol>
      {live.typing !== undefined ? (
        <p class="muted small" role="status">
          {live.typing ?? 'A teammate'} is typing…
        </p>
      ) : null}
      <Actions
        summary={live.summary}
        onChanged={() => {
          live.refresh();
          onChanged();
        }}
      />
      <VisitorData visitor={live.summary.visitor} onErased={onErased} />
    </section>
  );
}

/**
 * Moves the teammate's read marker as the inbox shows the conversation's entries (up to `lastSeq`); the inbox stream
 * then pushes the new unread count to the teammate's inboxes. Only a hint: a failure changes nothing on screen, and
 * the next entry sets it again.
 */
function useReadMarker(conversationId: string, lastSeq: number | undefined): void {
  useEffect(() => {
    if (lastSeq === undefined) return;
    post('conversations/read', { conversation_id: conversationId, seq: lastSeq }).catch(() => undefined);
  }, [conversationId, lastSeq]);
}

const HANDLED_BY = { agent: 'The agent answers', people: 'Waiting for a teammate', closed: 'Closed' } as const;

function About({ summary }: { summary: ConversationSummary }) {
  const { visitor, handoff } = summary;
  return (
    <dl class="about">
      <dt>Handled by</dt>
      <dd>{summary.handler === 'people' && summary.assignee ? summary.assignee.name : HANDLED_BY[summary.handler]}</dd>
      {summary.email ? (
        <>
          <dt>From</dt>
          <dd>{summary.email.address}</dd>
        </>
      ) : null}
      <dt>Visitor</dt>
      <dd>{visitor.verified_user_id ? `${visitor.verified_user_id} (verified)` : `${visitor.id.slice(0, 12)} (not verified)`}</dd>
      {summary.visitor_email ? (
        <>
          <dt>E-mail</dt>
          <dd>
            {summary.visitor_email}
            {summary.email_replies ? <span class="muted small"> · the visitor is away: replies are also sent to this address</span> : null}
          </dd>
        </>
      ) : null}
      {summary.page ? (
        <>
          <dt>Page</dt>
          <dd>
            <a href={summary.page} target="_blank" rel="noopener noreferrer">
              {summary.page}
            </a>
          </dd>
        </>
      ) : null}
      <dt>Locale</dt>
      <dd>{summary.locale}</dd>
      <dt>Started</dt>
      <dd>{when(summary.started_at)}</dd>
      {handoff ? (
        <>
          <dt>Handoff</dt>
          <dd>
            {when(handoff.requested_at)} · {HANDOFF_REASON[handoff.reason]}
            {handoff.summary ? <p class="summary">{handoff.summary}</p> : null}
          </dd>
        </>
      ) : null}
    </dl>
  );
}

/** `customer`: how the visitor's entries are headed (an e-mail conversation's: the sender's address); `mail`: the inbound mail it was made of. */
function Entry({
  message,
  customer,
  mail,
  conversationId,
  onDecided,
}: {
  message: TranscriptEntry;
  customer: string;
  mail: MailOfMessage | undefined;
  conversationId: string;
  onDecided: () => void;
}) {
  if (message.role === 'event') {
    return (
      <li class="message event">
        <p>
          <span class="event-text">{message.text}</span> <span class="muted small">· {when(message.at)}</span>
        </p>
      </li>
    );
  }
  const who = {
    user: customer,
    assistant: 'Agent',
    teammate: message.author?.name ?? 'Teammate',
    note: `Internal note · ${message.author?.name ?? 'Teammate'}`,
  }[message.role];
  return (
    <li class={`message ${message.role}`}>
      <span class="who">{who}</span>
      <p>{message.role === 'assistant' ? readable(message.text) : message.text}</p>
      {mail ? <MailMessage mail={mail} conversationId={conversationId} onDecided={onDecided} /> : null}
      <span class="muted small">
        {when(message.at)}
        {message.stopped ? ' · stopped by the visitor' : ''}
      </span>
    </li>
  );
}

/** Rich markers as the visitor saw them: their labels, not their syntax (`[Page:Pricing|/pricing]` is "Pricing"). */
const readable = (text: string) => text.replace(MARKER_LABEL, '“$1”');

/** Claim, reply, internal note, hand back, close, reopen: each an endpoint called with the session. */
function Actions({ summary, onChanged }: { summary: ConversationSummary; onChanged: () => void }) {
  const app = useApp();
  const [text, setText] = useState('');
  const lastTyping = useRef(0);
  const conversation_id = summary.id;
  const open = summary.handler !== 'closed';
  const act = useAction(async (change: () => Promise<unknown>) => {
    await change();
    onChanged();
  });
  const send = (path: 'conversations/reply' | 'conversations/note') =>
    act.run(async () => {
      await post(path, { conversation_id, text: text.trim() });
      setText('');
    });
  const typed = (value: string) => {
    setText(value);
    if (!open || Date.now() - lastTyping.current < TYPING_EVERY_MS) return;
    lastTyping.current = Date.now();
    // Only a hint to the visitor: a failure changes nothing the teammate sees.
    post('conversations/typing', { conversation_id }).catch(() => undefined);
  };
  const mine = summary.assignee?.id === app.session.user.id;
  // Where a reply goes by mail: an e-mail conversation's customer, or a widget visitor who left an address and is away.
  const mailedTo = summary.email?.address ?? (summary.email_replies ? summary.visitor_email : null);
  const locked = act.busy || !app.may('conversations:reply');
  return (
    <div class="conversation-actions">
      <div class="row">
        {open && !mine ? (
          <ActionButton
            permission="conversations:reply"
            variant="primary"
            busy={act.busy}
            onClick={() => void act.run(() => post('conversations/assign', { conversation_id }))}
          >
            Claim
          </ActionButton>
        ) : null}
        {summary.handler === 'people' ? (
          <ActionButton
            permission="conversations:reply"
            busy={act.busy}
            onClick={() => void act.run(() => post('conversations/handback', { conversation_id }))}
          >
            Hand back to the agent
          </ActionButton>
        ) : null}
        {open ? (
          <ActionButton
            permission="conversations:reply"
            variant="danger"
            busy={act.busy}
            onClick={() => void act.run(() => post('conversations/close', { conversation_id }))}
          >
            Close
          </ActionButton>
        ) : null}
        <SaveAsScenario agentId={summary.agent_id} from={{ from_conversation_id: conversation_id }} />
      </div>
      {open ? (
        <ActionForm onSubmit={() => text.trim() && send('conversations/reply')}>
          <label>
            Message
            <textarea
              value={text}
              rows={3}
              maxLength={LIVE_LIMITS.messageChars}
              disabled={locked}
              aria-describedby={app.may('conversations:reply') ? undefined : 'role-note-conversations:reply'}
              onInput={(event) => typed(event.currentTarget.value)}
            />
          </label>
          {mailedTo ? <p class="muted small">Sent by e-mail to {mailedTo}</p> : null}
          <div class="row">
            <ActionButton type="submit" permission="conversations:reply" variant="primary" busy={act.busy || !text.trim()}>
              {summary.channel === 'email' ? 'Reply by e-mail' : 'Reply to the visitor'}
            </ActionButton>
            <ActionButton permission="conversations:reply" busy={act.busy || !text.trim()} onClick={() => void send('conversations/note')}>
              Add internal note
            </ActionButton>
          </div>
        </ActionForm>
      ) : (
        <div class="row">
          <p class="muted">This conversation is closed.</p>
          <ActionButton permission="conversations:reply" busy={act.busy} onClick={() => void act.run(() => post('conversations/reopen', { conversation_id }))}>
            Reopen
          </ActionButton>
        </div>
      )}
      <ErrorNote error={act.error} />
    </div>
  );
}
