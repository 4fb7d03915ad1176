import { MCP_KEY_SCOPES, MCP_SCOPE_TEXT, type McpKeyScope } from '@service/shared/mcp';
import { useState } from 'preact/hooks';
import { get, post } from '../api/client';
import type { DataAt } from '../api/types';
import { useApp } from '../session';
import { ActionButton, ActionForm, Confirm, CopyButton, DataTable, ErrorNote, KeyCells, Loading, RoleNote, Screen, SecretOnce } from '../components';
import { useAction, useLoad } from '../hooks';
import { when } from '../format';

type Calls = DataAt<'connections/calls'>;
type McpKey = DataAt<'connections/key_list'>['keys'][number];
type AgentName = (id: string) => string;

/** The recent tool calls of one connection or MCP key (its audit trail), loaded when its row is opened. */
function RecentCalls({ id, of, load, agentName }: { id: string; of: string; load: () => Promise<Calls>; agentName: AgentName }) {
  const calls = useLoad(load, [id]);
  if (calls.loading && !calls.data) return <Loading what="calls" />;
  return (
    <>
      <ErrorNote error={calls.error} />
      <DataTable
        caption={`Recent calls of ${of}`}
        columns={['Time', 'Tool', 'Agent', 'Run', 'Outcome']}
        empty={calls.data?.calls.length === 0 && 'No calls yet.'}
      >
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

const reach = (agentIds: string[] | null, agentName: AgentName): string => (agentIds ? agentIds.map(agentName).join(', ') : 'All agents');

/** The last-use and calls cells of a connection's or a key's row; the calls button opens its recent calls. */
function UseCells({
  id,
  lastUsedAt,
  calls,
  opened,
  onOpen,
}: {
  id: string;
  lastUsedAt: string | null;
  calls: number;
  opened: string | null;
  onOpen: (id: string | null) => void;
}) {
  return (
    <>
      <td>{lastUsedAt ? when(lastUsedAt) : 'Never'}</td>
      <td>
        <button type="button" class="quiet" aria-expanded={opened === id} onClick={() => onOpen(opened === id ? null : id)}>
          {calls} {calls === 1 ? 'call' : 'calls'}
        </button>
      </td>
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
                <td>{reach(connection.agent_ids, agentName)}</td>
                <td>{when(connection.created_at)}</td>
                <UseCells id={connection.id} lastUsedAt={connection.last_used_at} calls={connection.calls} opened={opened} onOpen={setOpened} />
                <td>
                  <button type="button" class="danger" disabled={withdraw.busy} onClick={() => void withdraw.run(connection.id)}>
                    Withdraw
                  </button>
                </td>
              </tr>
            ))}
          </DataTable>
          {opened
            ? (() => {
                const connection = list.data.connections.find((candidate) => candidate.id === opened);
                return connection ? (
                  <RecentCalls
                    id={connection.id}
                    of={connection.client_name}
                    load={() => get('connections/calls', { connection_id: connection.id, limit: 20 })}
                    agentName={agentName}
                  />
                ) : null;
              })()
            : null}
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
      <McpKeys url={url} agents={agents.data?.agents ?? []} agentName={agentName} />
    </Screen>
  );
}

/**
 * MCP keys, for agents no person signs in for (CI, a server-side assistant, a script): made here with the consent
 * page's permissions and optionally some agents, shown once, listed with their calls, revoked at once.
 */
function McpKeys({ url, agents, agentName }: { url: string; agents: Array<{ id: string; name: string }>; agentName: AgentName }) {
  const app = useApp();
  const keys = useLoad(() => get('connections/key_list'), []);
  const [name, setName] = useState('');
  const [scopes, setScopes] = useState<McpKeyScope[]>(['agents:read', 'agents:ask']);
  const [chosenAgents, setChosenAgents] = useState<string[]>([]);
  const [secret, setSecret] = useState<string | null>(null);
  const [opened, setOpened] = useState<string | null>(null);
  const [revoking, setRevoking] = useState<McpKey | null>(null);
  const mayManage = app.may('manage');
  const create = useAction(async () => {
    const created = await post('connections/key_create', {
      name: name.trim() || 'MCP key',
      scopes,
      ...(chosenAgents.length ? { agent_ids: chosenAgents } : {}),
    });
    setSecret(created.secret ?? null);
    setName('');
    keys.reload();
  });
  // A revocation answers once no instance of the MCP server admits the key any more (about a second).
  const revoke = useAction(async (id: string) => {
    await post('connections/key_revoke', { key_id: id });
    keys.reload();
  });
  const toggle = <T,>(list: T[], value: T, on: boolean): T[] => (on ? [...list, value] : list.filter((other) => other !== value));
  const openedKey = keys.data?.keys.find((key) => key.id === opened);
  return (
    <>
      <h2>MCP keys for headless agents</h2>
      <p>
        For an agent no person signs in for (CI, a server-side assistant, a script): it sends the key as its bearer token to the server URL above. The key has
        the permissions and agents chosen here. API keys do not open the MCP server.
      </p>
      <p class="mono small">Authorization: Bearer mcp_live_…</p>
      <RoleNote permission="manage" action="creating or revoking MCP keys" />
      {secret ? <SecretOnce title="Your new MCP key" value={secret} onDone={() => setSecret(null)} /> : null}
      <ActionForm class="panel" onSubmit={create.run}>
        <label for="mcp-key-name">Key name</label>
        <input
          id="mcp-key-name"
          value={name}
          maxLength={80}
          placeholder="e.g. Nightly CI"
          disabled={!mayManage}
          onInput={(event) => setName(event.currentTarget.value)}
        />
        <fieldset class="checks">
          <legend>What it may do</legend>
          {MCP_KEY_SCOPES.map((scope) => (
            <label key={scope} class="check">
              <input
                type="checkbox"
                checked={scopes.includes(scope)}
                disabled={!mayManage}
                onChange={(event) => setScopes(toggle(scopes, scope, event.currentTarget.checked))}
              />
              {MCP_SCOPE_TEXT[scope].title} <span class="muted small">{MCP_SCOPE_TEXT[scope].detail}</span>
            </label>
          ))}
        </fieldset>
        <fieldset class="checks">
          <legend>Agents it may reach (tick none for all agents)</legend>
          {agents.map((agent) => (
            <label key={agent.id} class="check">
              <input
                type="checkbox"
                checked={chosenAgents.includes(agent.id)}
                disabled={!mayManage}
                onChange={(event) => setChosenAgents(toggle(chosenAgents, agent.id, event.currentTarget.checked))}
              />
              {agent.name}
            </label>
          ))}
        </fieldset>
        <ActionButton type="submit" permission="manage" variant="primary" busy={create.busy}>
          Create MCP key
        </ActionButton>
        <ErrorNote error={create.error ?? revoke.error} />
      </ActionForm>
      {keys.loading && !keys.data ? <Loading what="MCP keys" /> : null}
      <ErrorNote error={keys.error} />
      <DataTable
        caption="MCP keys"
        columns={['Name', 'Key', 'Permissions', 'Agents', 'Made by', 'Created', 'Last used', 'Calls', '']}
        empty={keys.data?.keys.length === 0 && 'No MCP keys yet.'}
      >
        {keys.data?.keys.map((key) => (
          <tr key={key.id} data-key-id={key.id}>
            <KeyCells name={key.name} prefix={key.prefix} last4={key.last4} />
            <td>{key.scopes.join(' ')}</td>
            <td>{reach(key.agent_ids, agentName)}</td>
            <td>{key.created_by}</td>
            <td>{when(key.created_at)}</td>
            <UseCells id={key.id} lastUsedAt={key.last_used_at} calls={key.calls} opened={opened} onOpen={setOpened} />
            <td>
              {key.revoked_at ? (
                <span class="badge failed">Revoked {when(key.revoked_at)}</span>
              ) : (
                <ActionButton permission="manage" variant="danger" label={`Revoke ${key.name}`} busy={revoke.busy} onClick={() => setRevoking(key)}>
                  Revoke
                </ActionButton>
              )}
            </td>
          </tr>
        ))}
      </DataTable>
      {openedKey ? (
        <RecentCalls
          id={openedKey.id}
          of={openedKey.name}
          load={() => get('connections/key_calls', { key_id: openedKey.id, limit: 20 })}
          agentName={agentName}
        />
      ) : null}
      <Confirm
        subject={revoking}
        title="Revoke this MCP key?"
        body={(key) => `Every agent using “${key.name}” loses access to ${url} at once. This cannot be undone.`}
        confirmLabel="Revoke key"
        onClose={() => setRevoking(null)}
        onConfirm={(key) => void revoke.run(key.id)}
      />
    </>
  );
}
