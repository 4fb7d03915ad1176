import * as z from 'zod';
import { MCP_KEY_SCOPES } from '../mcp';
import { ApiKey } from './api-keys';
import type { EndpointContract } from './contract';
import { isoDateTime, limitParam, secretAlreadyShown, secretShownOnce, text, uuid } from './primitives';

/**
 * MCP connections (issue 13) and MCP keys (issue 22): what the dashboard's Developers › MCP connections screen lists,
 * audits, creates, withdraws and revokes.
 */
const connectionId = z
  .string({ error: 'connection_id is required' })
  .regex(/^mcn_[A-Za-z0-9]{20}$/, { error: 'connection_id looks like mcn_ followed by 20 letters and digits' });
const mcpKeyId = z
  .string({ error: 'key_id is required' })
  .regex(/^mck_[A-Za-z0-9]{20}$/, { error: 'key_id looks like mck_ followed by 20 letters and digits' });

export const Connection = z
  .object({
    id: z.string(),
    client_name: z.string(),
    client_uri: z.string().nullable(),
    client_domain_verified: z
      .boolean()
      .meta({ description: 'True when the client came by a Client ID Metadata Document (its domain is the client_id URL host)' }),
    user_email: z.string(),
    workspace_id: z.string(),
    scopes: z.array(z.string()).meta({ description: 'Approved permissions: agents:read, agents:ask, agents:act, conversations:reply, offline_access' }),
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

const CallsData = z.object({ calls: z.array(ConnectionCall) });

/** An MCP key as listed: the API key's fields, what it may do, and its use (from its recent calls, as a connection's). */
export const McpKey = ApiKey.extend({
  scopes: z.array(z.enum(MCP_KEY_SCOPES)).meta({ description: 'Its permissions: agents:read, agents:ask, agents:act, conversations:reply' }),
  agent_ids: z.array(z.string()).nullable().meta({ description: 'The agents it reaches; null for all agents of the workspace' }),
  created_by: z.string().meta({ description: 'The e-mail of the person who made it, or "API key"' }),
  calls: z.number().int(),
}).meta({ id: 'McpKey' });

export const McpKeyCreateBody = z
  .object({
    name: text(80),
    scopes: z
      .array(z.enum(MCP_KEY_SCOPES, { error: `scopes are ${MCP_KEY_SCOPES.join(', ')}` }))
      .min(1, { error: 'scopes must name at least one permission' })
      .refine((scopes) => new Set(scopes).size === scopes.length, { error: 'scopes must not repeat a permission' }),
    agent_ids: z.array(uuid('agent_ids')).min(1, { error: 'agent_ids names at least one agent; leave it out for all agents' }).max(100).optional(),
  })
  .strict();

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
    data: CallsData,
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
  connectionsKeyCreate: {
    path: 'connections/key_create',
    method: 'POST',
    summary: 'Create an MCP key for a headless agent (the bearer on /mcp) with some permissions and optionally some agents; the key is returned once',
    body: McpKeyCreateBody,
    data: z.object({ key: McpKey, secret: secretShownOnce, secret_already_shown: secretAlreadyShown }),
    status: 201,
    idempotent: true,
    secretFields: ['secret'],
    access: 'manage',
  },
  connectionsKeyList: {
    path: 'connections/key_list',
    method: 'GET',
    summary: 'The MCP keys of the workspace, newest first (never the keys themselves)',
    data: z.object({ keys: z.array(McpKey) }),
    status: 200,
    access: 'read',
  },
  connectionsKeyCalls: {
    path: 'connections/key_calls',
    method: 'GET',
    summary: 'Recent tool calls made with one MCP key, newest first',
    query: z.object({ key_id: mcpKeyId, limit: limitParam }),
    data: CallsData,
    status: 200,
    access: 'read',
  },
  connectionsKeyRevoke: {
    path: 'connections/key_revoke',
    method: 'POST',
    summary: 'Revoke an MCP key: its next request to /mcp fails',
    body: z.object({ key_id: mcpKeyId }).strict(),
    data: z.object({ key: McpKey }),
    status: 200,
    access: 'manage',
  },
} as const satisfies Record<string, EndpointContract>;
