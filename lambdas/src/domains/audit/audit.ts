import { AUDIT_RETENTION_DAYS_DEFAULT, DomainError, randomBase62, type AuditActorType } from '@service/shared';
import type { AuditEventData } from '@service/webhooks';
import type { Deps } from '../../infra/deps';
import { getWorkspace, setAuditRetentionDays } from '../access/workspaces';
import { emitEvent, eventIdFrom } from '../webhooks/emit';
import { redactForAudit } from './redact';
import { putAuditItem, queryAuditItems, type AuditIndex, type AuditItem, type AuditPageQuery } from './repository';

/** Who did it: a person, an API key, an MCP client (a connection's assistant) or MCP key, or the platform itself. */
export type AuditActor = AuditEventData['actor'];

/** audit/list's actor types (shared) and those @service/webhooks gives receivers are the same names, or this fails to compile. */
export const ACTOR_TYPES_MATCH: [AuditActorType] extends [AuditActor['type']] ? ([AuditActor['type']] extends [AuditActorType] ? true : never) : never = true;

export interface AuditTarget {
  type: string;
  id: string | null;
  name?: string | null;
}

/** What one entry says; the recorder adds the id, the time and the retention. */
export interface AuditRecord {
  workspaceId: string;
  actor: AuditActor;
  /** `<resource>.<verb>`: `agent.updated`, `api_key.created`, `visitor.exported`, `auth.sign_in_failed`. */
  action: string;
  target: AuditTarget;
  before?: unknown;
  after?: unknown;
  sourceIp?: string | null;
  userAgent?: string | null;
  /**
   * A retry of the same request (an Idempotency-Key replay after a crash) passes the same seed and time: the entry's id
   * and key come out the same, and the put of an entry already stored is a no-op, so it is written once.
   */
  seed?: string;
  at?: Date;
}

/** The entry as audit/list and the `audit.event` webhook carry it (the type receivers get from @service/webhooks). */
export type AuditEntryView = AuditEventData;

const DAY_S = 86_400;
/** A user agent is the caller's text: kept, but bounded (a DynamoDB item is at most 400 KB). */
const MAX_USER_AGENT = 512;

const actorKeyOf = (workspaceId: string, id: string | null) => `${workspaceId}#${id ?? '-'}`;
const actionKeyOf = (workspaceId: string, action: string) => `${workspaceId}#${action}`;
const targetKeyOf = (workspaceId: string, id: string | null) => `${workspaceId}#${id ?? '-'}`;

export const toAuditEntryView = (item: AuditItem): AuditEntryView => ({
  id: item.id,
  workspace_id: item.workspaceId,
  time: item.time,
  actor: { type: item.actor.type as AuditActor['type'], id: item.actor.id, name: item.actor.name },
  action: item.action,
  target: item.target,
  before: item.before ?? null,
  after: item.after ?? null,
  source_ip: item.sourceIp,
  user_agent: item.userAgent,
});

/**
 * Records one entry and emits it as `audit.event` before returning: callers await it before they answer, so a change
 * the caller was told succeeded always has its entry (a failure here fails the request, whose retry records it once).
 * Before and after pass the central redaction (redact.ts) first.
 */
export async function recordAudit(deps: Deps, record: AuditRecord): Promise<AuditEntryView> {
  const at = record.at ?? deps.now();
  const id = `aud_${randomBase62(24, record.seed === undefined ? undefined : `audit#${record.action}#${record.seed}`)}`;
  const time = at.toISOString();
  // Read fresh (changes are rare): an entry recorded right after audit/retention_set is kept as long as it says.
  const retentionDays = await auditRetentionDays(deps, record.workspaceId);
  const item: AuditItem = {
    workspaceId: record.workspaceId,
    sk: `${time}#${id}`,
    id,
    time,
    actor: record.actor,
    action: record.action,
    target: { type: record.target.type, id: record.target.id, name: record.target.name ?? null },
    before: redactForAudit(record.before ?? null),
    after: redactForAudit(record.after ?? null),
    sourceIp: record.sourceIp ?? null,
    userAgent: record.userAgent?.slice(0, MAX_USER_AGENT) ?? null,
    actorKey: actorKeyOf(record.workspaceId, record.actor.id),
    actionKey: actionKeyOf(record.workspaceId, record.action),
    targetKey: targetKeyOf(record.workspaceId, record.target.id),
    expiresAtEpoch: Math.floor(at.getTime() / 1000) + retentionDays * DAY_S,
  };
  await putAuditItem(deps, item);
  const view = toAuditEntryView(item);
  // The entry's own id names the event: a repeated recording is a repeated emit, which delivers nothing twice.
  await emitEvent(deps, record.workspaceId, 'audit.event', view, { eventId: eventIdFrom(id) });
  return view;
}

export interface AuditFilter {
  actor?: string;
  action?: string;
  target?: string;
  from?: string;
  to?: string;
  limit: number;
  cursor?: string;
}

/** The filter read through an index (the target first: a thing's history is the most narrow), the others as conditions. */
function plan(workspaceId: string, filter: AuditFilter): Pick<AuditPageQuery, 'index' | 'also'> {
  const keys: { name: AuditIndex; attribute: 'targetKey' | 'actorKey' | 'actionKey'; value?: string }[] = [
    { name: 'byTarget', attribute: 'targetKey', value: filter.target === undefined ? undefined : targetKeyOf(workspaceId, filter.target) },
    { name: 'byActor', attribute: 'actorKey', value: filter.actor === undefined ? undefined : actorKeyOf(workspaceId, filter.actor) },
    { name: 'byAction', attribute: 'actionKey', value: filter.action === undefined ? undefined : actionKeyOf(workspaceId, filter.action) },
  ];
  const given = keys.filter((key) => key.value !== undefined);
  const [first, ...rest] = given;
  return {
    ...(first ? { index: { name: first.name, value: first.value! } } : {}),
    also: Object.fromEntries(rest.map((key) => [key.attribute, key.value!])),
  };
}

const CURSOR_ATTRIBUTES = new Set(['workspaceId', 'sk', 'actorKey', 'actionKey', 'targetKey']);

const encodeCursor = (key: Record<string, unknown>) => Buffer.from(JSON.stringify(key)).toString('base64url');

/** A cursor this list handed out for this workspace and this index, or VALIDATION_ERROR: never another workspace's key. */
function decodeCursor(cursor: string, workspaceId: string, index: AuditPageQuery['index']): Record<string, unknown> {
  try {
    const key = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown;
    if (key && typeof key === 'object' && !Array.isArray(key)) {
      const entries = Object.entries(key);
      const strings = entries.every(([name, value]) => CURSOR_ATTRIBUTES.has(name) && typeof value === 'string' && value.length <= 600);
      const record = key as Record<string, string>;
      const sameIndex = index === undefined || Object.values(record).includes(index.value);
      if (strings && record.workspaceId === workspaceId && typeof record.sk === 'string' && sameIndex) return record;
    }
  } catch {
    // falls through to the validation error
  }
  throw new DomainError('VALIDATION_ERROR', 'cursor is not one this list returned for these filters', { field: 'cursor' });
}

/** Entries of the workspace, newest first, narrowed by actor, action, target and time range; a page and the cursor of the next. */
export async function listAudit(deps: Deps, workspaceId: string, filter: AuditFilter): Promise<{ entries: AuditEntryView[]; nextCursor: string | null }> {
  const { index, also } = plan(workspaceId, filter);
  const start = filter.cursor === undefined ? undefined : decodeCursor(filter.cursor, workspaceId, index);
  const query: AuditPageQuery = {
    workspaceId,
    ...(index ? { index } : {}),
    also,
    ...(filter.from !== undefined ? { from: new Date(filter.from).toISOString() } : {}),
    ...(filter.to !== undefined ? { to: new Date(filter.to).toISOString() } : {}),
    limit: filter.limit,
    ...(start ? { start } : {}),
  };
  // A filtered page may come back short; read on until it is full or the range is done (each read is one page).
  const items: AuditItem[] = [];
  let lastKey: Record<string, unknown> | undefined = start;
  do {
    const page = await queryAuditItems(deps, { ...query, limit: filter.limit - items.length, ...(lastKey ? { start: lastKey } : {}) });
    items.push(...page.items);
    lastKey = page.lastKey;
  } while (lastKey && items.length < filter.limit);
  return { entries: items.map(toAuditEntryView), nextCursor: lastKey ? encodeCursor(lastKey) : null };
}

/** Days the workspace keeps audit entries (read fresh, not from the cache). */
export const auditRetentionDays = async (deps: Deps, workspaceId: string): Promise<number> =>
  (await getWorkspace(deps, workspaceId))?.auditRetentionDays ?? AUDIT_RETENTION_DAYS_DEFAULT;

/** Sets the audit retention for entries recorded from now on; those already stored keep theirs (nothing changes an entry). */
export async function setAuditRetention(deps: Deps, workspaceId: string, days: number): Promise<number> {
  if (!(await setAuditRetentionDays(deps, workspaceId, days))) throw new DomainError('NOT_FOUND', 'No such workspace');
  return days;
}
