import { MCP_PATH, roleMay } from '@service/shared';
import { toApiKeyResponse } from '../../../domains/access/api-keys';
import {
  callsOfConnection,
  listConnections,
  withdrawAllConnections,
  withdrawConnection,
  type ConnectionViewer,
  type StoredCall,
  type StoredConnection,
} from '../../../domains/connections/connections';
import { callsOfMcpKey, createMcpKey, earlierMcpKey, listMcpKeys, newMcpKeyId, revokeMcpKey, type ListedMcpKey } from '../../../domains/connections/mcp-keys';
import type { EndpointHandlers, EndpointInput } from './types';

type ConnectionEndpoints =
  | 'connectionsList'
  | 'connectionsCalls'
  | 'connectionsWithdraw'
  | 'connectionsWithdrawAll'
  | 'connectionsKeyCreate'
  | 'connectionsKeyList'
  | 'connectionsKeyCalls'
  | 'connectionsKeyRevoke';

/** A member sees (and withdraws) their own connections; admins, owners and API keys all of the workspace's. */
const viewerOf = (input: EndpointInput<ConnectionEndpoints>): ConnectionViewer => ({
  ...(input.session ? { userId: input.session.userId } : {}),
  seesAll: !input.session || roleMay(input.role ?? 'member', 'manage'),
});

const toConnection = (connection: StoredConnection & { calls: number; lastUsedAt: string | null }) => ({
  id: connection.id,
  client_name: connection.clientName,
  client_uri: connection.clientUri,
  client_domain_verified: connection.clientDomainVerified,
  user_email: connection.userEmail,
  workspace_id: connection.workspaceId,
  scopes: connection.scopes,
  agent_ids: connection.agentIds,
  created_at: connection.createdAt,
  last_used_at: connection.lastUsedAt,
  calls: connection.calls,
});

const toCall = (call: StoredCall) => ({ at: call.at, tool: call.tool, agent_id: call.agentId, run_id: call.runId, outcome: call.outcome });

/** An MCP key as listed: the API key's fields, with its permissions, agents and use. */
const toMcpKey = (key: ListedMcpKey) => ({
  ...toApiKeyResponse(key),
  scopes: key.scopes,
  agent_ids: key.agentIds,
  created_by: key.createdBy,
  calls: key.calls,
});

export const connectionEndpoints: EndpointHandlers<ConnectionEndpoints> = {
  connectionsList: async (input) => ({
    data: {
      mcp_url: input.deps.config.mcpResourceUrl ?? `${input.client?.origin ?? ''}${MCP_PATH}`,
      connections: (await listConnections(input.deps, input.workspace.id, viewerOf(input))).map(toConnection),
    },
  }),

  connectionsCalls: async (input) => ({
    data: {
      calls: (await callsOfConnection(input.deps, input.workspace.id, input.query.connection_id, viewerOf(input), input.query.limit)).map(toCall),
    },
  }),

  connectionsWithdraw: async (input) => {
    await withdrawConnection(input.deps, input.workspace.id, input.body.connection_id, viewerOf(input));
    return { data: { withdrawn: true as const }, msg: 'Withdrawn: its next request fails' };
  },

  connectionsWithdrawAll: async (input) => {
    const withdrawn = await withdrawAllConnections(input.deps, input.workspace.id, viewerOf(input));
    return { data: { withdrawn }, msg: `Withdrew ${withdrawn} connection${withdrawn === 1 ? '' : 's'}` };
  },

  connectionsKeyCreate: async ({ deps, workspace, body, action, session }) => {
    const id = newMcpKeyId(action.seed);
    // A retry after a crash finds the key its first attempt made; only its hash was kept, so the secret is gone.
    const earlier = action.seed ? await earlierMcpKey(deps, workspace.id, id) : undefined;
    if (earlier) {
      return {
        data: { key: toMcpKey(earlier), secret: null, secret_already_shown: true },
        msg: 'This key was created by an earlier attempt; revoke it and create another if you lack the secret',
      };
    }
    const { key, secret } = await createMcpKey(deps, workspace.id, {
      id,
      name: body.name,
      scopes: body.scopes,
      agentIds: body.agent_ids ?? null,
      createdBy: session?.email ?? 'API key',
      createdAt: action.at,
    });
    return { data: { key: toMcpKey({ ...key, calls: 0 }), secret, secret_already_shown: false }, msg: 'MCP key created; copy it now, it is not shown again' };
  },

  connectionsKeyList: async ({ deps, workspace }) => ({ data: { keys: (await listMcpKeys(deps, workspace.id)).map(toMcpKey) } }),

  connectionsKeyCalls: async ({ deps, workspace, query }) => ({
    data: { calls: (await callsOfMcpKey(deps, workspace.id, query.key_id, query.limit)).map(toCall) },
  }),

  connectionsKeyRevoke: async ({ deps, workspace, body }) => {
    return { data: { key: toMcpKey(await revokeMcpKey(deps, workspace.id, body.key_id)) }, msg: 'MCP key revoked: its next request fails' };
  },
};
