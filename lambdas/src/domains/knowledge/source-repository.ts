import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { Deps } from '../../infra/deps';
import { createOrFind, deleteIf, queryAll, readItem, updateIf, type ConditionalUpdate } from '../../infra/store/dynamo';

/** The knowledge domain's source repository: every store call of the knowledgeSources table. */
export type SourceType = 'website' | 'files' | 'answers';
export type SourceStatus = 'queued' | 'indexing' | 'ready' | 'failed';
export type SyncSchedule = 'daily' | 'weekly' | 'off';
export type SourceLanguage = 'auto' | 'en' | 'tr' | 'other';

/**
 * `syncLane` puts the source in the sparse `dueSync` index: `due` (sorted by `nextSyncAt`) while it has a schedule and
 * no sync is under way, `running` (sorted by when the sync started, kept in `nextSyncAt` then) during a sync, so the
 * scheduler finds both the syncs that are due and those that stalled.
 */
export interface StoredSource {
  workspaceId: string;
  id: string;
  type: SourceType;
  name: string;
  url?: string;
  status: SourceStatus;
  error?: string;
  documents: number;
  chunks: number;
  sync: SyncSchedule;
  language: SourceLanguage;
  /** null: every agent of the workspace may search it. */
  agentIds: string[] | null;
  lastSyncedAt?: string;
  nextSyncAt?: string;
  syncLane?: 'due' | 'running';
  /** The sync under way (or the last one). */
  syncId?: string;
  /** The website sync whose start has queued every page of its sitemap or start page: only such a sync may end. */
  seededSyncId?: string;
  /** The website sync whose end one page (or its start) has claimed: pages done at the same moment end it once. */
  endingSyncId?: string;
  /** The sync before it ('none' for the first), whose crawl frontier the new one removes. */
  previousSyncId?: string;
  syncStartedAt?: string;
  createdAt: string;
}

const table = (deps: Deps) => deps.store.table('knowledgeSources');
const keyOf = (source: Pick<StoredSource, 'workspaceId' | 'id'>) => ({ workspaceId: source.workspaceId, id: source.id });

export const createSourceOrFind = (deps: Deps, source: StoredSource) => createOrFind(deps.store, 'knowledgeSources', source, keyOf(source));

export const getSourceItem = (deps: Deps, workspaceId: string, id: string) => readItem<StoredSource>(deps.store, table(deps), { workspaceId, id });

export const querySources = (deps: Deps, workspaceId: string) =>
  queryAll<StoredSource>(deps.store, {
    TableName: table(deps),
    KeyConditionExpression: 'workspaceId = :w',
    ExpressionAttributeValues: { ':w': workspaceId },
    ConsistentRead: true,
  });

/** A conditional update of an existing source: the source after it, or undefined when it is gone or the condition failed. */
const updateSourceIf = (
  deps: Deps,
  source: Pick<StoredSource, 'workspaceId' | 'id'>,
  update: Omit<ConditionalUpdate, 'ConditionExpression'> & { ConditionExpression?: string },
) =>
  updateIf<StoredSource>(deps.store, table(deps), keyOf(source), {
    ...update,
    ConditionExpression: update.ConditionExpression ? `attribute_exists(id) AND (${update.ConditionExpression})` : 'attribute_exists(id)',
  });

/** Notes that the running sync `syncId` has queued all its seeds: the source after it, or undefined when that sync is no longer the one running. */
export const markSyncSeeded = (deps: Deps, source: Pick<StoredSource, 'workspaceId' | 'id'>, syncId: string) =>
  updateSourceIf(deps, source, {
    UpdateExpression: 'SET seededSyncId = :sync',
    ConditionExpression: 'syncId = :sync AND syncLane = :running',
    ExpressionAttributeValues: { ':sync': syncId, ':running': 'running' },
  });

/**
 * Claims the end of the running sync `syncId` for the caller alone: true once, false for every other page that saw it
 * done at the same moment. A crash after the claim leaves the sync running, and the scheduler restarts it as stalled.
 */
export const claimSyncEnd = async (deps: Deps, source: Pick<StoredSource, 'workspaceId' | 'id'>, syncId: string): Promise<boolean> =>
  (await updateSourceIf(deps, source, {
    UpdateExpression: 'SET endingSyncId = :sync',
    ConditionExpression: 'syncId = :sync AND syncLane = :running AND (attribute_not_exists(endingSyncId) OR endingSyncId <> :sync)',
    ExpressionAttributeValues: { ':sync': syncId, ':running': 'running' },
  })) !== undefined;

/** A page of the running sync `syncId` was done (the scheduler takes a sync as stalled only when none was for a while): the source after it, or undefined when that sync is no longer running. */
export const markSyncProgress = (deps: Deps, source: Pick<StoredSource, 'workspaceId' | 'id'>, syncId: string, at: Date) =>
  updateSourceIf(deps, source, {
    UpdateExpression: 'SET nextSyncAt = :now',
    ConditionExpression: 'syncId = :sync AND syncLane = :running',
    ExpressionAttributeValues: { ':now': at.toISOString(), ':sync': syncId, ':running': 'running' },
  });

/**
 * Starts the sync `syncId`: `indexing`, the sync before it remembered (`previousSyncId`), in the `running` lane from
 * `at`, unless a sync is under way that made progress since `stalledBefore`. The source after it, or undefined when
 * a live sync holds it.
 */
export const startSourceSync = (deps: Deps, source: Pick<StoredSource, 'workspaceId' | 'id'>, syncId: string, at: Date, stalledBefore: Date) =>
  updateSourceIf(deps, source, {
    UpdateExpression:
      'SET #status = :indexing, previousSyncId = if_not_exists(syncId, :none), syncId = :sync, syncStartedAt = :now, syncLane = :running, nextSyncAt = :now REMOVE #error',
    ConditionExpression: '#status <> :indexing OR nextSyncAt < :stalled',
    ExpressionAttributeNames: { '#status': 'status', '#error': 'error' },
    ExpressionAttributeValues: {
      ':indexing': 'indexing',
      ':sync': syncId,
      ':none': 'none',
      ':now': at.toISOString(),
      ':running': 'running',
      ':stalled': stalledBefore.toISOString(),
    },
  });

export interface SyncEnd {
  status: 'ready' | 'failed';
  documents: number;
  chunks: number;
  at: Date;
  error?: string;
  /** When the next sync is due (the `due` lane); none: the source leaves the lanes. */
  next?: string;
}

/** Ends the sync `syncId` if it is still the one indexing (a repeated end changes nothing). */
export const endSourceSync = (deps: Deps, source: Pick<StoredSource, 'workspaceId' | 'id'>, syncId: string, end: SyncEnd) =>
  updateSourceIf(deps, source, {
    UpdateExpression: `SET #status = :status, documents = :documents, chunks = :chunks, lastSyncedAt = :now${end.error ? ', #error = :error' : ''}${end.next ? ', syncLane = :due, nextSyncAt = :next' : ' REMOVE syncLane, nextSyncAt'}`,
    ConditionExpression: 'syncId = :sync AND #status = :indexing',
    ExpressionAttributeNames: { '#status': 'status', ...(end.error ? { '#error': 'error' } : {}) },
    ExpressionAttributeValues: {
      ':status': end.status,
      ':documents': end.documents,
      ':chunks': end.chunks,
      ':now': end.at.toISOString(),
      ':sync': syncId,
      ':indexing': 'indexing',
      ...(end.error ? { ':error': end.error } : {}),
      ...(end.next ? { ':due': 'due', ':next': end.next } : {}),
    },
  });

/** Adds to the source's counts (negative numbers take away) as documents are written or removed. */
export const addSourceCounts = (deps: Deps, source: Pick<StoredSource, 'workspaceId' | 'id'>, documents: number, chunks: number) =>
  updateSourceIf(deps, source, { UpdateExpression: 'ADD documents :d, chunks :c', ExpressionAttributeValues: { ':d': documents, ':c': chunks } });

export interface SourceSettings {
  name?: string;
  agentIds?: string[] | null;
  sync?: SyncSchedule;
  /** The source's place in the lanes: due at `next`, or out of them ('none'); undefined leaves it (a sync runs). */
  lane?: { next: string } | 'none';
}

/** Changes what the caller set of the source's settings: the source after it, or undefined when it is gone. */
export function updateSourceSettings(deps: Deps, source: Pick<StoredSource, 'workspaceId' | 'id'>, settings: SourceSettings) {
  const sets: string[] = [];
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  const set = (expression: string, named: Record<string, unknown>, attributeNames: Record<string, string> = {}) => {
    sets.push(expression);
    Object.assign(values, named);
    Object.assign(names, attributeNames);
  };
  if (settings.name !== undefined) set('#name = :name', { ':name': settings.name }, { '#name': 'name' });
  if (settings.agentIds !== undefined) set('agentIds = :agents', { ':agents': settings.agentIds });
  if (settings.sync !== undefined) set('#sync = :sync', { ':sync': settings.sync }, { '#sync': 'sync' });
  if (settings.lane !== undefined && settings.lane !== 'none') set('syncLane = :due, nextSyncAt = :next', { ':due': 'due', ':next': settings.lane.next });
  const remove = settings.lane === 'none' ? ' REMOVE syncLane, nextSyncAt' : '';
  return updateSourceIf(deps, source, {
    UpdateExpression: `${sets.length ? `SET ${sets.join(', ')}` : ''}${remove}`.trim(),
    ...(Object.keys(names).length ? { ExpressionAttributeNames: names } : {}),
    ...(Object.keys(values).length ? { ExpressionAttributeValues: values } : {}),
  });
}

export const deleteSourceItem = (deps: Deps, source: Pick<StoredSource, 'workspaceId' | 'id'>) =>
  deleteIf<StoredSource>(deps.store, table(deps), keyOf(source), { ConditionExpression: 'attribute_exists(id)' });

/** Sources of a lane whose `nextSyncAt` is at or before `until` (a page of them, oldest first). */
export async function sourcesInLane(deps: Deps, lane: 'due' | 'running', until: string, limit = 50): Promise<StoredSource[]> {
  const result = await deps.store.doc.send(
    new QueryCommand({
      TableName: table(deps),
      IndexName: 'dueSync',
      KeyConditionExpression: 'syncLane = :lane AND nextSyncAt <= :until',
      ExpressionAttributeValues: { ':lane': lane, ':until': until },
      Limit: limit,
    }),
  );
  return (result.Items ?? []) as StoredSource[];
}
