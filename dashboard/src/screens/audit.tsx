import { useState } from 'preact/hooks';
import { get } from '../api/client';
import type { QueryAt } from '../api/types';
import { changesOf, entriesCsv, type AuditEntry } from '../audit-entries';
import { ActionButton, ActionForm, DataTable, ErrorNote, Loading, RoleNote, Screen } from '../components';
import { downloadFile } from '../download';
import { when } from '../format';
import { useAction, useLoad } from '../hooks';
import { useApp } from '../session';

type Filters = Pick<QueryAt<'audit/list'>, 'actor' | 'action' | 'target' | 'from' | 'to'>;

const PAGE = 50;
/** An export reads at most this many pages of 100 (10,000 entries); narrow the filters for more. */
const EXPORT_PAGES = 100;

/** A `datetime-local` value (the viewer's time) as an ISO time, or undefined when empty. */
const isoOf = (local: string): string | undefined => (local ? new Date(local).toISOString() : undefined);
const trimmed = (text: string): string | undefined => text.trim() || undefined;

/** Who did it, as one line: the person's address or the key's name, and what kind of actor. */
const actorLine = (actor: AuditEntry['actor']) => `${actor.name ?? actor.id ?? 'the platform'} (${actor.type.replace('_', ' ')})`;
const targetLine = (target: AuditEntry['target']) => `${target.type.replaceAll('_', ' ')} ${target.name ?? target.id ?? ''}`.trim();

/** An entry's change: the fields that differ, before and after (secrets already `[redacted]` by the platform). */
function Change({ entry }: { entry: AuditEntry }) {
  const changes = changesOf(entry);
  if (!changes.length) return <span class="muted">—</span>;
  return (
    <details>
      <summary>
        {changes.length} field{changes.length === 1 ? '' : 's'}
      </summary>
      <table class="diff">
        <caption class="sr-only">What changed</caption>
        <thead>
          <tr>
            <th scope="col">Field</th>
            <th scope="col">Before</th>
            <th scope="col">After</th>
          </tr>
        </thead>
        <tbody>
          {changes.map((change) => (
            <tr key={change.field}>
              <th scope="row" class="mono">
                {change.field}
              </th>
              <td class="diff-before">{change.before}</td>
              <td class="diff-after">{change.after}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </details>
  );
}

/**
 * The workspace's audit log (owners and admins): who changed configuration or access, or read visitors' data, when and
 * from where, with each change's before and after; filtered by actor, action, target and time, paged, and exported as
 * CSV or JSON with the same filters.
 */
export default function Audit() {
  const app = useApp();
  const allowed = app.may('audit');
  const [form, setForm] = useState({ actor: '', action: '', target: '', from: '', to: '' });
  const [filters, setFilters] = useState<Filters>({});
  const [more, setMore] = useState<AuditEntry[]>([]);
  const [cursor, setCursor] = useState<string | null | undefined>(undefined);
  const first = useLoad(async () => (allowed ? get('audit/list', { ...filters, limit: PAGE }) : undefined), [filters, allowed]);
  const next = cursor === undefined ? (first.data?.next_cursor ?? null) : cursor;
  const entries = [...(first.data?.entries ?? []), ...more];

  const apply = () => {
    setMore([]);
    setCursor(undefined);
    setFilters({ actor: trimmed(form.actor), action: trimmed(form.action), target: trimmed(form.target), from: isoOf(form.from), to: isoOf(form.to) });
  };
  const loadMore = useAction(async () => {
    if (!next) return;
    const page = await get('audit/list', { ...filters, limit: PAGE, cursor: next });
    setMore((previous) => [...previous, ...page.entries]);
    setCursor(page.next_cursor);
  });
  const exportAs = useAction(async (format: 'csv' | 'json') => {
    const all: AuditEntry[] = [];
    let after: string | null | undefined;
    for (let page = 0; page < EXPORT_PAGES && after !== null; page += 1) {
      const answer = await get('audit/list', { ...filters, limit: 100, ...(after ? { cursor: after } : {}) });
      all.push(...answer.entries);
      after = answer.next_cursor;
    }
    const stamp = new Date().toISOString().slice(0, 19).replaceAll(':', '-');
    if (format === 'csv') downloadFile(`audit-${stamp}.csv`, entriesCsv(all), 'text/csv');
    else downloadFile(`audit-${stamp}.json`, JSON.stringify(all, null, 2), 'application/json');
  });
  const field = (name: keyof typeof form) => ({
    value: form[name],
    onInput: (event: { currentTarget: HTMLInputElement }) => setForm({ ...form, [name]: event.currentTarget.value }),
  });

  return (
    <Screen
      title="Audit log"
      trail="Company"
      intro="Every change to this workspace's agents, knowledge, members, keys, connections, webhooks and settings, every sign-in and failed sign-in, and every export or erasure of a visitor's data: who, when, from where, and what it was before and after. Secrets are never kept."
    >
      <RoleNote permission="audit" action="reading the audit log" />
      <ActionForm class="panel" onSubmit={apply}>
        <h2>Filters</h2>
        <div class="row wrap">
          <label>
            Actor id
            <input {...field('actor')} disabled={!allowed} placeholder="usr_…, key_…" />
          </label>
          <label>
            Action
            <input {...field('action')} disabled={!allowed} placeholder="agent.updated" pattern="[a-z][a-z_]*\.[a-z][a-z_]*" />
          </label>
          <label>
            Target id
            <input {...field('target')} disabled={!allowed} placeholder="an agent, key or member id" />
          </label>
          <label>
            From
            <input type="datetime-local" {...field('from')} disabled={!allowed} />
          </label>
          <label>
            To
            <input type="datetime-local" {...field('to')} disabled={!allowed} />
          </label>
          <button type="submit" disabled={!allowed}>
            Apply filters
          </button>
        </div>
      </ActionForm>
      <div class="row">
        <ActionButton permission="audit" busy={exportAs.busy} onClick={() => exportAs.run('csv')}>
          Export CSV
        </ActionButton>
        <ActionButton permission="audit" busy={exportAs.busy} onClick={() => exportAs.run('json')}>
          Export JSON
        </ActionButton>
      </div>
      <ErrorNote error={first.error ?? loadMore.error ?? exportAs.error} />
      {allowed && first.loading && !first.data ? <Loading what="the audit log" /> : null}
      {allowed ? (
        <DataTable
          caption="Audit entries"
          columns={['When', 'Who', 'Action', 'Target', 'From', 'Change']}
          empty={first.data?.entries.length === 0 && 'No entries match.'}
        >
          {entries.map((entry) => (
            <tr key={entry.id}>
              <td>{when(entry.time)}</td>
              <td>{actorLine(entry.actor)}</td>
              <td class="mono">{entry.action}</td>
              <td>{targetLine(entry.target)}</td>
              <td title={entry.user_agent ?? undefined}>{entry.source_ip ?? '—'}</td>
              <td>
                <Change entry={entry} />
              </td>
            </tr>
          ))}
        </DataTable>
      ) : null}
      {allowed && next ? (
        <ActionButton permission="audit" busy={loadMore.busy} onClick={() => loadMore.run()}>
          Load more
        </ActionButton>
      ) : null}
    </Screen>
  );
}
