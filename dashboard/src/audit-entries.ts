import type { DataAt } from './api/types';

/** One entry as audit/list answers it. */
export type AuditEntry = DataAt<'audit/list'>['entries'][number];

export interface FieldChange {
  field: string;
  before: string;
  after: string;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Leaves of a value by dotted path (`widget.greeting`); arrays and scalars are leaves, shown as JSON. */
function leaves(value: unknown, prefix = '', out = new Map<string, string>()): Map<string, string> {
  if (isObject(value)) for (const [key, inner] of Object.entries(value)) leaves(inner, prefix ? `${prefix}.${key}` : key, out);
  else if (prefix) out.set(prefix, typeof value === 'string' ? value : JSON.stringify(value));
  return out;
}

/** What an entry changed: each field whose value differs between before and after (a create or a delete shows every field). */
export function changesOf(entry: Pick<AuditEntry, 'before' | 'after'>): FieldChange[] {
  const before = leaves(entry.before);
  const after = leaves(entry.after);
  const fields = [...new Set([...before.keys(), ...after.keys()])].sort();
  return fields
    .filter((field) => before.get(field) !== after.get(field))
    .map((field) => ({ field, before: before.get(field) ?? '—', after: after.get(field) ?? '—' }));
}

/**
 * A CSV cell: quoted, quotes doubled, and a leading = + - @ (or tab, CR) made inert so that a spreadsheet opening the
 * export never runs what an actor typed into a name as a formula.
 */
const cell = (value: string | null): string => {
  const text = value ?? '';
  return `"${(/^[=+\-@\t\r]/.test(text) ? `'${text}` : text).replaceAll('"', '""')}"`;
};

const CSV_COLUMNS = [
  'time',
  'actor_type',
  'actor_id',
  'actor_name',
  'action',
  'target_type',
  'target_id',
  'target_name',
  'source_ip',
  'user_agent',
  'before',
  'after',
] as const;

/** The entries as CSV (RFC 4180, CRLF), one row each, before and after as JSON. */
export function entriesCsv(entries: AuditEntry[]): string {
  const rows = entries.map((entry) =>
    [
      entry.time,
      entry.actor.type,
      entry.actor.id,
      entry.actor.name,
      entry.action,
      entry.target.type,
      entry.target.id,
      entry.target.name,
      entry.source_ip,
      entry.user_agent,
      JSON.stringify(entry.before ?? null),
      JSON.stringify(entry.after ?? null),
    ]
      .map(cell)
      .join(','),
  );
  return [CSV_COLUMNS.join(','), ...rows].join('\r\n') + '\r\n';
}
