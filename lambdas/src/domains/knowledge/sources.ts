import { DomainError, KNOWLEDGE_LIMITS, randomBase62, type BodyOf, type DataOf } from '@service/shared';
import type { Deps } from '../../infra/deps';
import type { Action } from '../../infra/store/idempotency';
import { listAgents } from '../agents/agents';
import { assertSubscribableUrl } from '../webhooks/subscriptions';
import {
  createSourceOrFind,
  getSourceItem,
  querySources,
  updateSourceSettings,
  type SourceSettings,
  type StoredSource,
  type SyncSchedule,
} from './source-repository';

export type ApiSource = DataOf<'knowledgeSourceGet'>['source'];

const DAY_MS = 24 * 60 * 60 * 1000;
const SCHEDULE_MS: Record<Exclude<SyncSchedule, 'off'>, number> = { daily: DAY_MS, weekly: 7 * DAY_MS };

/** When a source synced at `at` syncs next, or undefined when it has no schedule. */
export const nextSyncAfter = (schedule: SyncSchedule, at: Date): string | undefined =>
  schedule === 'off' ? undefined : new Date(at.getTime() + SCHEDULE_MS[schedule]).toISOString();

export const toApiSource = (source: StoredSource): ApiSource => ({
  id: source.id,
  type: source.type,
  name: source.name,
  url: source.url ?? null,
  status: source.status,
  error: source.error ?? null,
  documents: source.documents,
  chunks: source.chunks,
  sync: source.sync,
  language: source.language,
  agent_ids: source.agentIds,
  last_synced_at: source.lastSyncedAt ?? null,
  // While a sync runs, `nextSyncAt` holds when it started (the `running` lane): the next one is known once it ends.
  next_sync_at: source.syncLane === 'due' ? (source.nextSyncAt ?? null) : null,
  created_at: source.createdAt,
});

export async function requireSource(deps: Deps, workspaceId: string, sourceId: string, type?: StoredSource['type']): Promise<StoredSource> {
  const source = await getSourceItem(deps, workspaceId, sourceId);
  if (!source) throw new DomainError('NOT_FOUND', `No knowledge source ${sourceId} in this workspace`, { field: 'source_id' });
  if (type && source.type !== type)
    throw new DomainError('VALIDATION_ERROR', `Source ${sourceId} is a ${source.type} source, not a ${type} source`, { field: 'source_id' });
  return source;
}

/** Agent ids must name agents of this workspace (a typo would silently hide the source from every agent). */
async function checkAgents(deps: Deps, workspaceId: string, agentIds: string[] | null | undefined): Promise<void> {
  if (!agentIds || agentIds.length === 0) return;
  const known = new Set((await listAgents(deps, workspaceId)).map((agent) => agent.id));
  const unknown = agentIds.find((id) => !known.has(id));
  if (unknown) throw new DomainError('AGENT_NOT_FOUND', `No agent ${unknown} in this workspace`, { field: 'agent_ids' });
}

const defaultName = (body: BodyOf<'knowledgeSourceCreate'>) =>
  body.name ?? (body.type === 'website' ? new URL(body.url!).hostname : body.type === 'files' ? 'Files' : 'Answers');

/** Stores a new source (`queued` for a website, whose first sync the caller starts; `ready` for files and answers). */
export async function createSource(
  deps: Deps,
  workspaceId: string,
  body: BodyOf<'knowledgeSourceCreate'>,
  action: Action,
  id = `src_${randomBase62(20, action.seed)}`,
): Promise<{ source: StoredSource; created: boolean }> {
  // The outbound guard's rules (https, no credentials, no private address) unless WEBHOOK_ALLOW_LOCAL (local tests).
  if (body.url) assertSubscribableUrl(body.url, deps.config.webhookAllowLocal);
  await checkAgents(deps, workspaceId, body.agent_ids);
  const existing = await querySources(deps, workspaceId);
  if (existing.length >= KNOWLEDGE_LIMITS.maxSourcesPerWorkspace && !existing.some((source) => source.id === id)) {
    throw new DomainError('VALIDATION_ERROR', `A workspace has at most ${KNOWLEDGE_LIMITS.maxSourcesPerWorkspace} knowledge sources`, { field: 'type' });
  }
  // Only a website has anything to fetch again on a schedule.
  const sync = body.type === 'website' ? (body.sync ?? 'weekly') : 'off';
  const source: StoredSource = {
    workspaceId,
    id,
    type: body.type,
    name: defaultName(body),
    ...(body.url ? { url: body.url } : {}),
    status: body.type === 'website' ? 'queued' : 'ready',
    documents: 0,
    chunks: 0,
    sync,
    language: body.language ?? 'auto',
    agentIds: body.agent_ids ?? null,
    createdAt: action.at.toISOString(),
  };
  const { item, created } = await createSourceOrFind(deps, source);
  return { source: item, created };
}

export const listSources = async (deps: Deps, workspaceId: string) =>
  (await querySources(deps, workspaceId)).sort((a, b) => a.createdAt.localeCompare(b.createdAt));

/** Renames a source, changes the agents that may search it or its schedule (a new schedule counts from now). */
export async function updateSource(deps: Deps, workspaceId: string, body: BodyOf<'knowledgeSourceUpdate'>): Promise<StoredSource> {
  const source = await requireSource(deps, workspaceId, body.source_id);
  await checkAgents(deps, workspaceId, body.agent_ids);
  if (body.sync && body.sync !== 'off' && source.type !== 'website')
    throw new DomainError('VALIDATION_ERROR', 'Only a website source syncs on a schedule', { field: 'sync' });
  const settings: SourceSettings = {
    ...(body.name !== undefined ? { name: body.name } : {}),
    ...(body.agent_ids !== undefined ? { agentIds: body.agent_ids } : {}),
  };
  if (body.sync !== undefined) {
    settings.sync = body.sync;
    // Not while a sync runs: it puts the source back into its lane when it ends.
    const next = nextSyncAfter(body.sync, deps.now());
    if (source.syncLane !== 'running') settings.lane = next ? { next } : 'none';
  }
  if (Object.keys(settings).length === 0) return source;
  const updated = await updateSourceSettings(deps, source, settings);
  if (!updated) throw new DomainError('NOT_FOUND', `No knowledge source ${body.source_id} in this workspace`, { field: 'source_id' });
  return updated;
}
