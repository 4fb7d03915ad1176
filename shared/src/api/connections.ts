import * as z from 'zod';
import type { EndpointContract } from './contract';
import { isoDateTime, limitParam } from './primitives';

/** MCP connections (issue 13): what the dashboard's Developers › MCP connections screen lists, audits and withdraws. */
const connectionId = z.string({ error: 'connection_id is required' }).regex(/^mcn_[A-Za-z0-9]{20}$/, { error: 'connection_id looks like mcn_ followed by 20 letters and digits' });

export const Connection = z
  .object({
    id: z.string(),
    client_name: z.string(),
    client_uri: z.string().nullable(),
    client_domain_verified: z.boolean().meta({ description: 'True when the client came by a Client ID Metadata Document (its domain is the client_id URL host)' }),
    user_email: z.string(),
    workspace_id: z.string(),
    scopes: z.array(z.string()).meta({ description: 'Approved permissions: agents:read, agents:ask, agents:act, offline_access' }),
    agent_ids: z.array(z.string()).nullable().meta({ description: 'The agents it reaches; null for all agents of the workspace' }),
    created_at: isoDateTime,
    last_used_at: isoDateTime.nullable(),
    calls: z.number().int(),
  })
  .meta({ id: 'McpConnection' });

export const ConnectionCall = z
  .object({
    at: isoDateTime,
    tool: z.string(),
    agent_id: z.string().nullable(),
    run_id: z.string().nullable(),
    outcome: z.string().meta({ description: 'ok, or the refusal (an error code, refused, failed)' }),
  })
  .meta({ id: 'McpConnectionCall' });

export const CONNECTION_ENDPOINTS = {
  connectionsList: {
    path: 'connections/list',
    method: 'GET',
    summary: 'The MCP connections of the workspace (a member sees their own; admins and API keys see all) and the MCP URL',
    data: z.object({ mcp_url: z.string(), connections: z.array(Connection) }),
    status: 200,
    access: 'read',
  },
  connectionsCalls: {
    path: 'connections/calls',
    method: 'GET',
    summary: 'Recent tool calls of one MCP connection, newest first',
    query: z.object({ connection_id: connectionId, limit: limitParam }),
    data: z.object({ calls: z.array(ConnectionCall) }),
    status: 200,
    access: 'read',
  },
  connectionsWithdraw: {
    path: 'connections/withdraw',
    method: 'POST',
    summary: 'Withdraw an MCP connection: its next request fails and its refresh token gets invalid_grant',
    body: z.object({ connection_id: connectionId }).strict(),
    data: z.object({ withdrawn: z.literal(true) }),
    status: 200,
    access: 'read',
  },
  connectionsWithdrawAll: {
    path: 'connections/withdraw_all',
    method: 'POST',
    summary: 'Withdraw every MCP connection the caller may see; answers how many',
    body: z.object({}).strict(),
    data: z.object({ withdrawn: z.number().int() }),
    status: 200,
    access: 'read',
  },
} as const satisfies Record<string, EndpointContract>;
