import { useEffect, useRef, useState } from 'preact/hooks';
import { KNOWLEDGE_LIMITS, SYNC_SCHEDULES } from '@service/shared/knowledge-limits';
import { post } from '../api/client';
import type { DataAt } from '../api/types';
import { ActionButton, ActionForm, ErrorNote } from '../components';
import { useAction } from '../hooks';
import { useApp } from '../session';
import { AgentPicker, type AgentList } from './knowledge-agents';
import { ACCEPTED_FILES, uploadBody, uploadProblem } from './knowledge-files';

// The Knowledge screen's three ways to add knowledge: a website, files, written answers.

export type Source = DataAt<'knowledge/source_list'>['sources'][number];
export type Schedule = (typeof SYNC_SCHEDULES)[number];
export const SCHEDULE_TEXT: Record<Schedule, string> = { daily: 'Every day', weekly: 'Every week', off: 'Only when I press Sync now' };

export function ScheduleSelect({ id, value, onChange }: { id: string; value: Schedule; onChange: (value: Schedule) => void }) {
  return (
    <select id={id} value={value} onChange={(event) => onChange(event.currentTarget.value as Schedule)}>
      {SYNC_SCHEDULES.map((schedule) => (
        <option key={schedule} value={schedule}>
          {SCHEDULE_TEXT[schedule]}
        </option>
      ))}
    </select>
  );
}

export function AddWebsite({ agents, onAdded }: { agents: AgentList; onAdded: () => void }) {
  const [url, setUrl] = useState('');
  const [name, setName] = useState('');
  const [sync, setSync] = useState<Schedule>('weekly');
  const [agentIds, setAgentIds] = useState<string[] | null>(null);
  const add = useAction(async () => {
    await post('knowledge/source_create', { type: 'website', url: url.trim(), sync, agent_ids: agentIds, ...(name.trim() ? { name: name.trim() } : {}) });
    setUrl('');
    setName('');
    onAdded();
  });
  return (
    <ActionForm class="panel" onSubmit={add.run}>
      <h2>Add a website</h2>
      <p class="muted small">Its pages (same site only, robots.txt honoured) are read and kept up to date on the schedule.</p>
      <label for="site-url">Start page or sitemap</label>
      <input
        id="site-url"
        type="url"
        required
        placeholder="https://www.example.com/ or …/sitemap.xml"
        value={url}
        onInput={(event) => setUrl(event.currentTarget.value)}
      />
      <label for="site-name">Name (optional)</label>
      <input id="site-name" maxLength={200} value={name} onInput={(event) => setName(event.currentTarget.value)} />
      <label for="site-sync">Sync</label>
      <ScheduleSelect id="site-sync" value={sync} onChange={setSync} />
      <AgentPicker agents={agents} value={agentIds} onChange={setAgentIds} idPrefix="site-agents" />
      <ActionButton type="submit" permission="knowledge:manage" variant="primary" busy={add.busy}>
        Add website
      </ActionButton>
      <ErrorNote error={add.error} />
    </ActionForm>
  );
}

/** Files go into a `files` source: one picked from the workspace's, or a new one made on the first upload. */
export function UploadFiles({ sources, onUploaded }: { sources: Source[]; onUploaded: () => void }) {
  const app = useApp();
  const fileSources = sources.filter((source) => source.type === 'files');
  const [target, setTarget] = useState('');
  const [files, setFiles] = useState<File[]>([]);
  // A new key empties the file input once its files are uploaded.
  const [picker, setPicker] = useState(0);
  const [done, setDone] = useState('');
  const problems = files.map(uploadProblem).filter((problem): problem is string => problem !== null);
  const upload = useAction(async () => {
    setDone('');
    const sourceId = target || fileSources[0]?.id || (await post('knowledge/source_create', { type: 'files', name: 'Files' })).source.id;
    // One at a time: each body is up to a few MB, and the list shows each file as it is indexed.
    for (const file of files) {
      await post('knowledge/document_upload', await uploadBody(sourceId, file));
      onUploaded();
    }
    setDone(`${files.length === 1 ? files[0]!.name : `${files.length} files`} added.`);
    setFiles([]);
    setPicker((value) => value + 1);
  });
  return (
    <ActionForm class="panel" onSubmit={upload.run}>
      <h2>Upload files</h2>
      <p class="muted small">Markdown, HTML, plain text or PDF, up to 4 MB each. A file with the same name replaces the earlier one.</p>
      {fileSources.length > 1 ? (
        <>
          <label for="files-source">Into</label>
          <select id="files-source" value={target || fileSources[0]!.id} onChange={(event) => setTarget(event.currentTarget.value)}>
            {fileSources.map((source) => (
              <option key={source.id} value={source.id}>
                {source.name}
              </option>
            ))}
          </select>
        </>
      ) : null}
      <label for="files-input">Files</label>
      <input
        key={picker}
        id="files-input"
        type="file"
        multiple
        accept={ACCEPTED_FILES}
        disabled={!app.may('knowledge:manage')}
        onChange={(event) => {
          setDone('');
          setFiles([...(event.currentTarget.files ?? [])]);
        }}
      />
      {problems.map((problem) => (
        <p class="error" role="alert" key={problem}>
          {problem}
        </p>
      ))}
      <ActionButton type="submit" permission="knowledge:manage" variant="primary" busy={upload.busy || files.length === 0 || problems.length > 0}>
        Upload
      </ActionButton>
      {done ? (
        <p class="note" role="status">
          {done}
        </p>
      ) : null}
      <ErrorNote error={upload.error} />
    </ActionForm>
  );
}

/**
 * A written answer: the fix for a question the agent missed. Opened for an unanswered question (`answering`), it
 * starts with that question filled in and the answer box in view, and saving it takes the question off the list.
 */
export function WriteAnswer({ answering, onSaved }: { answering?: { id: string; text: string } | null; onSaved: () => void }) {
  const id = 'answer';
  const [question, setQuestion] = useState(answering?.text ?? '');
  const [answer, setAnswer] = useState('');
  const [url, setUrl] = useState('');
  const answerBox = useRef<HTMLTextAreaElement>(null);
  useEffect(() => {
    if (!answering) return;
    answerBox.current?.scrollIntoView({ block: 'center' });
    answerBox.current?.focus();
  }, [answering]);
  const save = useAction(async () => {
    await post('knowledge/answer_create', {
      question: question.trim(),
      answer: answer.trim(),
      ...(url.trim() ? { url: url.trim() } : {}),
      ...(answering ? { unanswered_id: answering.id } : {}),
    });
    setQuestion('');
    setAnswer('');
    setUrl('');
    onSaved();
  });
  return (
    <ActionForm class="panel" onSubmit={save.run}>
      <h2 id={`${id}-title`}>Write an answer</h2>
      <label for={`${id}-question`}>Question</label>
      <input id={`${id}-question`} required maxLength={500} value={question} onInput={(event) => setQuestion(event.currentTarget.value)} />
      <label for={`${id}-text`}>Answer</label>
      <textarea
        ref={answerBox}
        id={`${id}-text`}
        required
        maxLength={KNOWLEDGE_LIMITS.maxAnswerChars}
        rows={4}
        value={answer}
        onInput={(event) => setAnswer(event.currentTarget.value)}
      />
      <label for={`${id}-url`}>Link to cite (optional)</label>
      <input id={`${id}-url`} type="url" placeholder="https://www.example.com/pricing" value={url} onInput={(event) => setUrl(event.currentTarget.value)} />
      <ActionButton type="submit" permission="knowledge:manage" variant="primary" busy={save.busy}>
        Save answer
      </ActionButton>
      <ErrorNote error={save.error} />
    </ActionForm>
  );
}
