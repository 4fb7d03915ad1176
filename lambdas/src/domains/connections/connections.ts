import { DomainError, randomBase62 } from '@service/shared';
import type { Deps } from '../../infra/deps';
import { endAccess } from './grants';
import { callUse, recentCalls, recordCall } from './connection-call-repository';
import { connectionsOfWorkspace, findConnection, type StoredConnection } from './connection-repository';

/**
 * The connections domain: MCP connections (OAuth grants: the client, the person, scopes and agents, rotating refresh
 * tokens, recent calls) and MCP keys, the restricted keys of headless agents. Raises `OAuthRefusal` (an RFC error
 * code) where other domains raise `DomainError`.
 */
export type { StoredCall } from './connection-call-repository';
export type { StoredConnection };

/** Who looks at the connections of a workspace: a member sees their own, admins and owners (and API keys) all. */
export interface ConnectionViewer {
  userId?: string;
  seesAll: boolean;
}

const CALL_RETENTION_DAYS = 90;
export const CALLS_LIMIT_MAX = 100;

const visibleTo = (viewer: ConnectionViewer, connection: StoredConnection) => viewer.seesAll || connection.userId === viewer.userId;

const live = async (deps: Deps, workspaceId: string, viewer: ConnectionViewer) =>
  (await connectionsOfWorkspace(deps, workspaceId)).filter((connection) => connection.status === 'active' && visibleTo(viewer, connection));

/** The live connections of the workspace the viewer may see, newest first, with their number of calls and last use. */
export async function listConnections(
  deps: Deps,
  workspaceId: string,
  viewer: ConnectionViewer,
): Promise<Array<StoredConnection & { calls: number; lastUsedAt: string | null }>> {
  return Promise.all((await live(deps, workspaceId, viewer)).map(async (connection) => ({ ...connection, ...(await callUse(deps, connection.id)) })));
}

async function visibleConnection(deps: Deps, workspaceId: string, connectionId: string, viewer: ConnectionViewer): Promise<StoredConnection> {
  const connection = await findConnection(deps, connectionId);
  if (!connection || connection.workspaceId !== workspaceId || !visibleTo(viewer, connection)) {
    throw new DomainError('NOT_FOUND', `No connection ${connectionId} in this workspace`, { field: 'connection_id' });
  }
  return connection;
}

export async function callsOfConnection(deps: Deps, workspaceId: string, connectionId: string, viewer: ConnectionViewer, limit: number) {
  await visibleConnection(deps, workspaceId, connectionId, viewer);
  return recentCalls(deps, connectionId, Math.min(limit, CALLS_LIMIT_MAX));
}

/** Withdraws a connection: once this answers, its next request fails and its refresh token gets invalid_grant. */
export async function withdrawConnection(deps: Deps, workspaceId: string, connectionId: string, viewer: ConnectionViewer): Promise<void> {
  const connection = await visibleConnection(deps, workspaceId, connectionId, viewer);
  if (connection.status !== 'active') return;
  await endAccess(deps, connection.id, 'withdrawn', viewer.userId ? `withdrawn by ${viewer.userId}` : 'withdrawn with an API key');
}

/** Withdraws every live connection the viewer may see; answers how many. */
export async function withdrawAllConnections(deps: Deps, workspaceId: string, viewer: ConnectionViewer): Promise<number> {
  const at = deps.now().toISOString();
  const ended = await Promise.all(
    (await live(deps, workspaceId, viewer)).map((connection) => endAccess(deps, connection.id, 'withdrawn', 'withdrawn with all others', at)),
  );
  return ended.filter(Boolean).length;
}

/** Counts a tool call on its connection and keeps it among the recent calls (the audit trail). */
export async function noteCall(
  deps: Deps,
  connectionId: string,
  call: { tool: string; agentId: string | null; runId: string | null; outcome: string },
): Promise<void> {
  const now = deps.now();
  await recordCall(deps, {
    connectionId,
    sk: `${now.toISOString()}#${randomBase62(6)}`,
    at: now.toISOString(),
    ...call,
    expiresAtEpoch: Math.ceil(now.getTime() / 1000) + CALL_RETENTION_DAYS * 24 * 60 * 60,
  });
}
