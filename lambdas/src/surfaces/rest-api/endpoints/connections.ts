import { MCP_PATH, roleMay } from '@service/shared';
import { callsOfConnection, listConnections, withdrawAllConnections, withdrawConnection, type ConnectionViewer } from '../../../domains/connections/connections';
import type { StoredConnection } from '../../../domains/connections/repository';
import type { EndpointHandlers, EndpointInput } from './types';

type ConnectionEndpoints = 'connectionsList' | 'connectionsCalls' | 'connectionsWithdraw' | 'connectionsWithdrawAll';

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

export const connectionEndpoints: EndpointHandlers<ConnectionEndpoints> = {
  connectionsList: async (input) => ({
    data: {
      mcp_url: input.deps.config.mcpResourceUrl ?? `${input.client?.origin ?? ''}${MCP_PATH}`,
      connections: (await listConnections(input.deps, input.workspace.id, viewerOf(input))).map(toConnection),
    },
  }),

  connectionsCalls: async (input) => ({
    data: {
      calls: (await callsOfConnection(input.deps, input.workspace.id, input.query.connection_id, viewerOf(input), input.query.limit)).map((call) => ({
        at: call.at,
        tool: call.tool,
        agent_id: call.agentId,
        run_id: call.runId,
        outcome: call.outcome,
      })),
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
};
