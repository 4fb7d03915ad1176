import type { McpScope, Permission } from '@service/shared';
import { roleMay } from '@service/shared';
import type { Deps } from '../../infra/deps';
import type { StoredConnection } from '../../domains/connections/repository';

/**
 * What one MCP request may do: the connection (approved scopes and chosen agents), the scopes of its token, and the
 * person's current role in the workspace, as verified for this request (verifyAccessToken). Each tool checks all three.
 */
export interface McpAccess {
  deps: Deps;
  connection: StoredConnection;
  scopes: string[];
  role: string;
  /**
   * Work started once the answer is sent and finished before the request ends (the call's audit record): the
   * assistant never waits for it.
   */
  afterAnswer: (() => Promise<unknown>)[];
}

export const hasScope = (access: McpAccess, scope: McpScope): boolean => access.scopes.includes(scope);

/** The role's platform permission (roles can change after the consent: checked at every call). */
export function roleAllows(access: McpAccess, permission: Permission): string | undefined {
  return roleMay(access.role, permission) ? undefined : `Your role in this workspace (${access.role}) does not allow ${permission === 'read' ? 'reading agents' : 'commanding agents'}`;
}

/** Whether the connection reaches this agent (null: the person did not narrow it). */
export const reachesAgent = (access: McpAccess, agentId: string): boolean => access.connection.agentIds === null || access.connection.agentIds.includes(agentId);
