import type { McpScope, Permission } from '@service/shared';
import { roleMay } from '@service/shared';
import type { Deps } from '../../infra/deps';

/**
 * What an MCP request came with: a connection (a person's consent in the browser) or an MCP key (made in the
 * dashboard for a headless agent). Its id names its recent calls and the runs it starts.
 */
export interface McpGrant {
  kind: 'connection' | 'key';
  id: string;
  workspaceId: string;
  /** null: every agent of the workspace. */
  agentIds: string[] | null;
}

/**
 * What one MCP request may do: the grant (approved scopes and chosen agents), the scopes of its token, and the role
 * it acts with (a connection's person's current role, as verified for this request; `admin` for an MCP key, within
 * its permissions). Each tool checks all three.
 */
export interface McpAccess {
  deps: Deps;
  grant: McpGrant;
  scopes: string[];
  role: string;
  /** The person a connection acts for (a teammate's reply goes as them); null for an MCP key, which acts for the workspace. */
  userId: string | null;
  /**
   * Work started once the answer is sent and finished before the request ends (the call's audit record): the
   * assistant never waits for it.
   */
  afterAnswer: (() => Promise<unknown>)[];
  /** A 2025-11-25 tools/call's task augmentation (`params.task`), read from the body: ask_agent answers a task. */
  legacyTask?: { ttl?: number };
}

export const hasScope = (access: McpAccess, scope: McpScope): boolean => access.scopes.includes(scope);

const DOING: Record<Permission, string> = {
  read: 'reading agents',
  command: 'commanding agents',
  manage: 'managing agents',
  members: 'managing members',
  'knowledge:manage': 'managing knowledge',
  'conversations:reply': "answering visitors' conversations",
  'visitors:manage': "exporting or erasing visitors' data",
  audit: 'reading the audit log',
};

/** The role's platform permission (roles can change after the consent: checked at every call). */
export function roleAllows(access: McpAccess, permission: Permission): string | undefined {
  return roleMay(access.role, permission) ? undefined : `Your role in this workspace (${access.role}) does not allow ${DOING[permission]}`;
}

/** Whether the grant reaches this agent (null: it was not narrowed). */
export const reachesAgent = (access: McpAccess, agentId: string): boolean => access.grant.agentIds === null || access.grant.agentIds.includes(agentId);
