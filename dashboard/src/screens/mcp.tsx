import { useState } from 'preact/hooks';
import { ApiError, get, post } from '../api/client';
import { Confirm, CopyButton, DataTable, ErrorNote, Loading, Screen, useAction, useLoad, when } from '../ui';

/** Until the MCP access point is deployed, connections/list answers 404: the URL is still shown, with no connections. */
async function loadConnections() {
  try {
    return await get('connections/list');
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return { mcp_url: new URL('/mcp', location.origin).href, connections: [] };
    throw error;
  }
}

export default function McpConnections() {
  const list = useLoad(loadConnections, []);
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
          <DataTable caption="MCP connections" columns={['Assistant', 'Person', 'Scopes', 'Last used', 'Calls', '']}>
                {list.data.connections.map((connection) => (
                  <tr key={connection.id}>
                    <td>
                      {connection.client_name}
                      {connection.client_uri ? <span class="muted small"> {connection.client_uri}</span> : null}
                    </td>
                    <td>{connection.user_email}</td>
                    <td>{connection.scopes.join(' ')}</td>
                    <td>{connection.last_used_at ? when(connection.last_used_at) : 'Never'}</td>
                    <td>{connection.calls}</td>
                    <td>
                      <button type="button" class="danger" onClick={() => void withdraw.run(connection.id)}>
                        Withdraw
                      </button>
                    </td>
                  </tr>
                ))}
          </DataTable>
          <button type="button" class="danger" onClick={() => setConfirmAll(true)}>
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
