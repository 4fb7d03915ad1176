import { useEffect, useState } from 'preact/hooks';
import { get } from '../api/client';
import type { DataAt } from '../api/types';
import { ErrorNote, Loading, Screen } from '../components';
import { useAction, useLoad } from '../hooks';
import { when } from '../format';
import { AgentTabs } from './agent-tabs';

const PAGE = 50;
type Page = DataAt<'conversations/list'>;

export default function Conversations({ params }: { params: string[] }) {
  const agentId = params[0]!;
  const list = useLoad(() => get('conversations/list', { agent_id: agentId, limit: PAGE }), [agentId]);
  /** The pages after the first, with the cursor of the next one (Load more); a new first page starts over. */
  const [later, setLater] = useState<Page | null>(null);
  useEffect(() => setLater(null), [list.data]);
  const nextCursor = later ? later.next_cursor : (list.data?.next_cursor ?? null);
  const more = useAction(async () => {
    if (!nextCursor) return;
    const page = await get('conversations/list', { agent_id: agentId, limit: PAGE, cursor: nextCursor });
    setLater((previous) => ({ conversations: [...(previous?.conversations ?? []), ...page.conversations], next_cursor: page.next_cursor }));
  });
  const conversations = list.data ? [...list.data.conversations, ...(later?.conversations ?? [])] : [];
  const [open, setOpen] = useState<string | null>(null);
  return (
    <Screen title="Conversations" intro="What visitors said to the agent in the widget. Read-only.">
      <AgentTabs agentId={agentId} current="conversations" />
      {list.loading && !list.data ? <Loading what="conversations" /> : null}
      <ErrorNote error={list.error} />
      {list.data && list.data.conversations.length === 0 ? <p class="muted">No conversations yet.</p> : null}
      <ul class="conversations">
        {conversations.map((conversation) => (
          <li key={conversation.id} class="card">
            <button type="button" class="quiet wide" aria-expanded={open === conversation.id} onClick={() => setOpen(open === conversation.id ? null : conversation.id)}>
              {when(conversation.started_at)} · {conversation.messages} messages · visitor {conversation.visitor.verified_user_id ?? conversation.visitor.id.slice(0, 12)}
            </button>
            {open === conversation.id ? <Transcript id={conversation.id} /> : null}
          </li>
        ))}
      </ul>
      {nextCursor ? (
        <button type="button" disabled={more.busy} onClick={() => void more.run()}>
          {more.busy ? 'Loading…' : 'Load more'}
        </button>
      ) : null}
      <ErrorNote error={more.error} />
    </Screen>
  );
}

function Transcript({ id }: { id: string }) {
  const conversation = useLoad(() => get('conversations/get', { conversation_id: id }), [id]);
  if (conversation.error) return <ErrorNote error={conversation.error} />;
  if (!conversation.data) return <Loading what="the transcript" />;
  return (
    <ol class="transcript" aria-label="Transcript">
      {conversation.data.messages.map((message, index) => (
        <li key={index} class={`message ${message.role}`}>
          <span class="who">{message.role === 'user' ? 'Visitor' : 'Agent'}</span>
          <p>{readable(message.text)}</p>
          <span class="muted small">
            {when(message.at)}
            {message.stopped ? ' · stopped by the visitor' : ''}
          </span>
        </li>
      ))}
    </ol>
  );
}

/** Rich markers as the visitor saw them: their labels, not their syntax (`[Page:Pricing|/pricing]` is "Pricing"). */
const readable = (text: string) => text.replace(/\[(?:Skill|Agent|Page|Link|Action):([^|\]]+)\|[^\]]*\]/g, '“$1”');
