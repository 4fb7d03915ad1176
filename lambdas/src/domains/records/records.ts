import { DomainError, newRecordId } from '@service/shared';
import type { Deps } from '../../infra/deps';
import { chunks } from '../../infra/chunks';
import type { Action } from '../../infra/store/idempotency';
import { eventIdFrom, prepareEmit } from '../webhooks/emit';
import { createRecordOrFind, deleteRecordItem, queryRecords, queryRecordsFromOrigins, type StoredRecord } from './repository';

/**
 * Contacts, calendar events and tasks of a workspace share one table: sk `<kind>#<created_at>#<id>`,
 * so a kind lists newest first with one Query and pages with an opaque cursor.
 */
export type RecordKind = 'contact' | 'event' | 'task' | 'email';
const ID_PREFIX = { contact: 'con', event: 'cal', task: 'tsk', email: 'msg' } as const;
/** The workspace event each new record emits (to skills that declare it). */
const CREATED_EVENT = { contact: 'contact.created', event: 'calendar.event_created', task: 'task.created', email: undefined } as const;

export async function createRecord<T extends object>(
  deps: Deps,
  workspaceId: string,
  kind: RecordKind,
  fields: T,
  action: Action = { at: deps.now() },
  /** The widget conversation (or run) whose agent creates it. */
  origin?: string,
): Promise<T & { id: string; created_at: string }> {
  const id = newRecordId(ID_PREFIX[kind], action.seed);
  const createdAt = action.at.toISOString();
  const record: StoredRecord<T> = {
    workspaceId,
    sk: `${kind}#${createdAt}#${id}`,
    kind,
    fields: { ...fields, id, created_at: createdAt },
    ...(origin ? { origin } : {}),
  };
  const event = CREATED_EVENT[kind];
  // Who hears of the new record is read while it is written.
  const emit = event && prepareEmit(deps, workspaceId, event);
  const stored = (await createRecordOrFind(deps, record)).fields;
  if (emit) await emit.send(stored, eventIdFrom(stored.id));
  return stored;
}

const encodeCursor = (key: Record<string, unknown>) => Buffer.from(JSON.stringify({ sk: key.sk })).toString('base64url');

/** `<kind>#<ISO time>#<prefix>_<id>`: the only sort keys this list hands out, and far below DynamoDB's 1,024 bytes. */
const cursorKey = (kind: RecordKind) => new RegExp(`^${kind}#\\d{4}-\\d{2}-\\d{2}T[0-9:.]{8,16}Z#${ID_PREFIX[kind]}_[0-9A-Za-z]{1,32}$`);

function decodeCursor(cursor: string, workspaceId: string, kind: RecordKind): Record<string, unknown> {
  try {
    const { sk } = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as { sk: unknown };
    if (typeof sk === 'string' && cursorKey(kind).test(sk)) return { workspaceId, sk };
  } catch {
    // falls through to the validation error
  }
  throw new DomainError('VALIDATION_ERROR', 'cursor is not one this list returned', { field: 'cursor' });
}

export async function listRecords<T>(deps: Deps, workspaceId: string, kind: RecordKind, page: { limit: number; cursor?: string }) {
  const { records, lastKey } = await queryRecords<T>(
    deps,
    workspaceId,
    kind,
    page.limit,
    page.cursor ? decodeCursor(page.cursor, workspaceId, kind) : undefined,
  );
  return { items: records.map((record) => record.fields), nextCursor: lastKey ? encodeCursor(lastKey) : null };
}

/** The records of a kind that agents created in the given conversations (at most 100 conversations a call: DynamoDB's IN). */
export const recordsFromConversations = async <T>(deps: Deps, workspaceId: string, kind: RecordKind, conversationIds: string[]): Promise<StoredRecord<T>[]> =>
  (await Promise.all(chunks(conversationIds, 100).map((ids) => queryRecordsFromOrigins<T>(deps, workspaceId, kind, ids)))).flat();

export const deleteRecord = (deps: Deps, record: Pick<StoredRecord<unknown>, 'workspaceId' | 'sk'>) => deleteRecordItem(deps, record.workspaceId, record.sk);
