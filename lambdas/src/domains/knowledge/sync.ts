import { newUuid } from '@service/shared';
import type { Deps } from '../../infra/deps';
import { emitEvent, eventIdFrom } from '../webhooks/emit';
import { allDocuments } from './document-repository';
import { nextSyncAfter, requireSource, toApiSource } from './sources';
import { endSourceSync, startSourceSync, type StoredSource } from './source-repository';

/** The messages of the `knowledge` queue: start a sync, or crawl one page of a website's sync. */
export type KnowledgeMessage =
  | { type: 'sync'; workspaceId: string; sourceId: string; syncId: string }
  | { type: 'page'; workspaceId: string; sourceId: string; syncId: string; urlKey: string };

/** A sync that made no progress for this long (no page done: `nextSyncAt` while it runs) is started again by the scheduler. */
export const STALLED_SYNC_MS = 2 * 60 * 1000;

/**
 * Starts a sync of the source: one conditional update marks it `indexing` under a new sync id (unless a sync is under
 * way and not stalled: that one is answered), then the `sync` message goes to the knowledge queue. A crash between the
 * two leaves a `running` source the scheduler finds stalled and starts again. The sync before it is remembered
 * (`previousSyncId`) so that its crawl frontier can be removed.
 */
export async function requestSync(deps: Deps, workspaceId: string, sourceId: string, syncId = newUuid()): Promise<StoredSource> {
  const source = await requireSource(deps, workspaceId, sourceId);
  const now = deps.now();
  const started = await startSourceSync(deps, source, syncId, now, new Date(now.getTime() - STALLED_SYNC_MS));
  if (!started) return await requireSource(deps, workspaceId, sourceId);
  await deps.queue.send('knowledge', { type: 'sync', workspaceId, sourceId, syncId } satisfies KnowledgeMessage);
  return started;
}

export interface SyncOutcome {
  changed: number;
  removed: number;
  failed: number;
}

/**
 * Ends the sync `syncId`: counts from the documents themselves, `ready` (or `failed` when nothing could be indexed at
 * all), the next sync scheduled, and the webhook (its id derived from the sync, so a repeated finish sends it once).
 * The event goes before the conditional update that ends the sync: a crash between them repeats the same event id.
 */
export async function finishSync(deps: Deps, source: StoredSource, syncId: string, outcome: SyncOutcome, failure?: string): Promise<void> {
  const documents = await allDocuments(deps, source.id);
  const indexed = documents.filter((document) => document.status === 'indexed');
  const now = deps.now();
  const error = failure ?? (documents.length > 0 && indexed.length === 0 ? `No page could be indexed: ${documents[0]!.error ?? 'unknown reason'}` : undefined);
  const next = nextSyncAfter(source.sync, now);
  if (error) {
    await emitEvent(
      deps,
      source.workspaceId,
      'knowledge.source.failed',
      { source_id: source.id, source_name: source.name, type: source.type, status: 'failed', error, failed_at: now.toISOString() },
      { eventId: eventIdFrom(`ksf${syncId}`) },
    );
  } else {
    await emitEvent(
      deps,
      source.workspaceId,
      'knowledge.source.synced',
      {
        source_id: source.id,
        source_name: source.name,
        type: source.type,
        status: 'ready',
        documents: indexed.length,
        chunks: indexed.reduce((sum, document) => sum + document.chunks, 0),
        ...outcome,
        synced_at: now.toISOString(),
        next_sync_at: next ?? null,
      },
      { eventId: eventIdFrom(`kss${syncId}`) },
    );
  }
  await endSourceSync(deps, source, syncId, {
    status: error ? 'failed' : 'ready',
    documents: indexed.length,
    chunks: indexed.reduce((sum, document) => sum + document.chunks, 0),
    at: now,
    ...(error ? { error } : {}),
    ...(next ? { next } : {}),
  });
}

/** A files or answers source has nothing to fetch: its sync recounts its documents and reports. */
export async function syncStoredDocuments(deps: Deps, source: StoredSource, syncId: string): Promise<void> {
  await finishSync(deps, source, syncId, { changed: 0, removed: 0, failed: 0 });
}

export const sourceAfterSyncRequest = async (deps: Deps, workspaceId: string, sourceId: string) => toApiSource(await requestSync(deps, workspaceId, sourceId));
