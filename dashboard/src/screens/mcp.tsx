import { useState } from 'preact/hooks';
import { get, post } from '../api/client';
import type { DataAt } from '../api/types';
import { useApp } from '../session';
import { Confirm, CopyButton, DataTable, ErrorNote, Loading, Screen, useAction, useLoad, when } from '../ui';

type Connection = DataAt<'connections/list'>['connections'][number];

/** The recent tool calls of one connection (its audit trail), loaded when its row is opened. */
function RecentCalls({ connection, agentName }: { connection: Connection; agentName: (id: string) => string }) {
  const calls = useLoad(() => get('connections/calls', { connection_id: connection.id, limit: 20 }), [connection.id]);
  if (calls.loading && !calls.data) return <Loading what="calls" />;
  return (
    <>
      <ErrorNote error={calls.error} />
      <DataTable caption={`Recent calls of ${connection.client_name}`} columns={['Time', 'Tool', 'Agent', 'Run', 'Outcome']} empty={calls.data?.calls.length === 0 && 'No calls yet.'}>
        {calls.data?.calls.map((call, index) => (
          <tr key={`${call.at}:${index}`}>
            <td>{when(call.at)}</td>
            <td class="mono">{call.tool}</td>
            <td>{call.agent_id ? agentName(call.agent_id) : ''}</td>
            <td class="mono small">{call.run_id ?? ''}</td>
            <td>{call.outcome}</td>
          </tr>
        ))}
      </DataTable>
    </>
  );
}

export default function McpConnections() {
  const list = useLoad(() => get('connections/list'), []);
  const agents = useLoad(() => get('agents/list'), []);
  const app = useApp();
  const [opened, setOpened] = useState<string | null>(null);
  const agentName = (id: string) => agents.data?.agents.find((agent) => agent.id === id)?.name ?? id;
  const workspaceName = (id: string) => app.session.workspaces.find((workspace) => workspace.id === id)?.name ?? id;
  const [confirmAll, setConfirmAll] = useState(false);
  const withdraw = useAction(async (id: string) => {
    await post('connections/withdraw', { connection_id: id });
    list.reload();
  });
  const withdrawAll = useAction(async () => {
    await post('connections/withdraw_all', {});
    list.reload();
  });
  const url = list.data?.mcp_url ?? new URL('/mcp', location.origin).href;
  return (
    <Screen title="MCP connections" trail="Developers" intro="Let an AI assistant talk to your agents through the Model Context Protocol.">
      <h2>Server URL</h2>
      <p class="mono" id="mcp-url">
        {url}
      </p>
      <CopyButton text={url} label="Copy URL" />
      <h2>Add it to an assistant</h2>
      <ol>
        <li>In the assistant, add a custom connector (or remote MCP server) and paste the URL above.</li>
        <li>The assistant opens this dashboard: sign in and choose the workspace, the agents and what it may do.</li>
        <li>The connection appears below; withdraw it here at any time.</li>
      </ol>
      <h2>Connections</h2>
      {list.loading && !list.data ? <Loading what="connections" /> : null}
      <ErrorNote error={list.error ?? withdraw.error ?? withdrawAll.error} />
      {list.data && list.data.connections.length === 0 ? <p class="muted">No assistant is connected.</p> : null}
      {list.data && list.data.connections.length > 0 ? (
        <>
          <DataTable caption="MCP connections" columns={['Assistant', 'Person', 'Workspace', 'Permissions', 'Agents', 'Created', 'Last used', 'Calls', '']}>
            {list.data.connections.map((connection) => (
              <tr key={connection.id}>
                <td>
                  {connection.client_name}
                  {connection.client_uri ? <span class="muted small"> {connection.client_uri}</span> : null}
                  {connection.client_domain_verified ? <span class="badge completed">verified domain</span> : null}
                </td>
                <td>{connection.user_email}</td>
                <td>{workspaceName(connection.workspace_id)}</td>
                <td>{connection.scopes.join(' ')}</td>
                <td>{connection.agent_ids ? connection.agent_ids.map(agentName).join(', ') : 'All agents'}</td>
                <td>{when(connection.created_at)}</td>
                <td>{connection.last_used_at ? when(connection.last_used_at) : 'Never'}</td>
                <td>
                  <button type="button" class="quiet" aria-expanded={opened === connection.id} onClick={() => setOpened(opened === connection.id ? null : connection.id)}>
                    {connection.calls} {connection.calls === 1 ? 'call' : 'calls'}
                  </button>
                </td>
                <td>
                  <button type="button" class="danger" disabled={withdraw.busy} onClick={() => void withdraw.run(connection.id)}>
                    Withdraw
                  </button>
                </td>
              </tr>
            ))}
          </DataTable>
          {opened ? (() => {
            const connection = list.data.connections.find((candidate) => candidate.id === opened);
            return connection ? <RecentCalls connection={connection} agentName={agentName} /> : null;
          })() : null}
          <button type="button" class="danger" disabled={withdrawAll.busy} onClick={() => setConfirmAll(true)}>
            Withdraw all
          </button>
        </>
      ) : null}
      <Confirm
        subject={confirmAll ? 'all' : null}
        title="Withdraw every connection?"
        body={() => 'Every connected assistant loses access at once.'}
        confirmLabel="Withdraw all"
        onClose={() => setConfirmAll(false)}
        onConfirm={() => void withdrawAll.run()}
      />
    </Screen>
  );
}
