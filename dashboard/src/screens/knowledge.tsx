import { useEffect, useState } from 'preact/hooks';
import { get, post } from '../api/client';
import { ActionButton, ActionForm, Confirm, DataTable, ErrorNote, Loading, RoleNote, SaveRow, Screen } from '../components';
import { useAction, useLoad, useRefreshWhile } from '../hooks';
import { when } from '../format';
import { AgentPicker, agentsText, type AgentList } from './knowledge-agents';
import { AddWebsite, SCHEDULE_TEXT, ScheduleSelect, UploadFiles, WriteAnswer, type Schedule, type Source } from './knowledge-add';
import { TestQuestion } from './knowledge-test';
import { UnansweredQuestions, type UnansweredQuestion } from './knowledge-unanswered';

/** While a source is queued or indexing, the list is read again this often (and no more once none is). */
const LIVE_REFRESH_MS = 1500;
const TYPE_TEXT: Record<Source['type'], string> = { website: 'Website', files: 'Files', answers: 'Answers' };
const STATUS_BADGE: Record<Source['status'], string> = { queued: 'requires_action', indexing: 'requires_action', ready: 'completed', failed: 'failed' };

/** `#/knowledge/answer/<unanswered id>` (Insights' "Write an answer") opens the answer form on that question. */
export default function Knowledge({ params }: { params: string[] }) {
  const sources = useLoad(() => get('knowledge/source_list'), []);
  const unanswered = useLoad(() => get('knowledge/unanswered_list', { limit: 50 }), []);
  const [answering, setAnswering] = useState<UnansweredQuestion | null>(null);
  const linkedQuestion = params[0] === 'answer' ? params[1] : undefined;
  useEffect(() => {
    const question = unanswered.data?.questions.find((candidate) => candidate.id === linkedQuestion);
    if (question) setAnswering(question);
  }, [linkedQuestion, unanswered.data]);
  const agents = useLoad(() => get('agents/list'), []);
  const agentList = agents.data?.agents ?? [];
  const list = sources.data?.sources ?? [];
  useRefreshWhile(
    list.some((source) => source.status === 'queued' || source.status === 'indexing'),
    sources.reload,
    LIVE_REFRESH_MS,
  );
  const [editing, setEditing] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<Source | null>(null);
  const sync = useAction(async (id: string) => {
    await post('knowledge/source_sync', { source_id: id });
    sources.reload();
  });
  const remove = useAction(async (id: string) => {
    await post('knowledge/source_delete', { source_id: id });
    if (editing === id) setEditing(null);
    sources.reload();
  });
  const edited = list.find((source) => source.id === editing);
  return (
    <Screen title="Knowledge" intro="What your agents answer from: your website, files and answers you write. Agents cite what they use.">
      <RoleNote permission="knowledge:manage" action="adding, syncing or deleting knowledge" />
      {sources.loading && !sources.data ? <Loading what="knowledge sources" /> : null}
      <ErrorNote error={sources.error ?? agents.error ?? unanswered.error ?? sync.error ?? remove.error} />
      <DataTable
        caption="Knowledge sources"
        columns={['Source', 'Status', 'Documents', 'Chunks', 'Agents', 'Last sync', 'Next sync', '']}
        empty={sources.data?.sources.length === 0 && 'No knowledge yet: add a website, files or an answer below.'}
      >
        {list.map((source) => (
          <tr key={source.id} data-source-id={source.id}>
            <td>
              <strong>{source.name}</strong>
              <br />
              <span class="muted small">{TYPE_TEXT[source.type]}</span>
              {source.url ? <span class="mono small break"> {source.url}</span> : null}
            </td>
            <td>
              <span class={`badge ${STATUS_BADGE[source.status]}`} data-status={source.status}>
                {source.status}
              </span>
              {source.status === 'failed' && source.error ? <p class="error small">{source.error}</p> : null}
            </td>
            <td data-count="documents">{source.documents}</td>
            <td data-count="chunks">{source.chunks}</td>
            <td>{agentsText(agentList, source.agent_ids)}</td>
            <td>{when(source.last_synced_at)}</td>
            <td>{source.type !== 'website' ? '—' : source.sync === 'off' ? 'Off' : when(source.next_sync_at)}</td>
            <td class="row">
              {source.type === 'website' ? (
                <ActionButton
                  permission="knowledge:manage"
                  label={`Sync now: ${source.name}`}
                  busy={source.status === 'queued' || source.status === 'indexing'}
                  onClick={() => void sync.run(source.id)}
                >
                  Sync now
                </ActionButton>
              ) : null}
              <button
                type="button"
                class="quiet"
                aria-pressed={editing === source.id}
                aria-label={`Settings of ${source.name}`}
                onClick={() => setEditing(editing === source.id ? null : source.id)}
              >
                Settings
              </button>
              <ActionButton permission="knowledge:manage" variant="danger" label={`Delete ${source.name}`} onClick={() => setDeleting(source)}>
                Delete
              </ActionButton>
            </td>
          </tr>
        ))}
      </DataTable>
      {edited ? <SourceSettings key={edited.id} source={edited} agents={agentList} onSaved={sources.reload} /> : null}
      <TestQuestion agents={agentList} />
      <UnansweredQuestions questions={unanswered.data?.questions ?? []} agents={agentList} onAnswer={setAnswering} onDismissed={unanswered.reload} />
      <WriteAnswer
        key={answering?.id ?? 'new'}
        answering={answering}
        onSaved={() => {
          setAnswering(null);
          sources.reload();
          unanswered.reload();
        }}
      />
      <UploadFiles sources={list} onUploaded={sources.reload} />
      <AddWebsite agents={agentList} onAdded={sources.reload} />
      <Confirm
        subject={deleting}
        title="Delete this source?"
        body={(source) =>
          `“${source.name}” goes with its ${source.documents === 1 ? 'document' : `${source.documents} documents`}, its files and its index entries. Agents stop citing it at once. This cannot be undone.`
        }
        confirmLabel="Delete source"
        onClose={() => setDeleting(null)}
        onConfirm={(source) => void remove.run(source.id)}
      />
    </Screen>
  );
}

/** A source's name, the agents that may search it and (a website's) sync schedule. */
function SourceSettings({ source, agents, onSaved }: { source: Source; agents: AgentList; onSaved: () => void }) {
  const [name, setName] = useState(source.name);
  const [agentIds, setAgentIds] = useState(source.agent_ids);
  const [sync, setSync] = useState<Schedule>(source.sync);
  const [saved, setSaved] = useState(false);
  const save = useAction(async () => {
    await post('knowledge/source_update', { source_id: source.id, name: name.trim(), agent_ids: agentIds, ...(source.type === 'website' ? { sync } : {}) });
    setSaved(true);
    onSaved();
  });
  return (
    <ActionForm class="panel" onSubmit={save.run}>
      <h2>Settings of {source.name}</h2>
      <label for="source-name">Name</label>
      <input id="source-name" required maxLength={200} value={name} onInput={(event) => setName(event.currentTarget.value)} />
      {source.type === 'website' ? (
        <>
          <label for="source-sync">Sync</label>
          <ScheduleSelect id="source-sync" value={sync} onChange={setSync} />
          <p class="muted small">Now: {SCHEDULE_TEXT[source.sync]}.</p>
        </>
      ) : null}
      <AgentPicker agents={agents} value={agentIds} onChange={setAgentIds} idPrefix="source-agents" />
      <SaveRow permission="knowledge:manage" busy={save.busy} saved={saved} error={save.error} />
    </ActionForm>
  );
}
