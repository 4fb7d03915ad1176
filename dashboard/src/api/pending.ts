/**
 * Shapes of the endpoints PLAN.md names whose contract lives in another helper's branch (H13's connections). `Api`
 * prefers the shared contract for any path it has, so these only fill the gap until that merge.
 */
type Get<Q, D> = { method: 'GET'; query: Q; body: undefined; data: D };
type Post<B, D> = { method: 'POST'; query: undefined; body: B; data: D };

export interface Connection {
  id: string;
  client_name: string;
  client_uri: string | null;
  client_domain_verified: boolean;
  user_email: string;
  workspace_id: string;
  scopes: string[];
  agent_ids: string[] | null;
  created_at: string;
  last_used_at: string | null;
  calls: number;
}

export interface Pending {
  'connections/list': Get<undefined, { mcp_url: string; connections: Connection[] }>;
  'connections/calls': Get<{ connection_id: string; limit?: number }, { calls: { at: string; tool: string; agent_id: string | null; run_id: string | null; outcome: string }[] }>;
  'connections/withdraw': Post<{ connection_id: string }, { withdrawn: true }>;
  'connections/withdraw_all': Post<Record<string, never>, { withdrawn: number }>;
}
