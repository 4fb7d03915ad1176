/**
 * Shapes of endpoints PLAN.md names whose contracts live in other helpers' branches (auth, people, conversations,
 * connections). `Api` prefers the shared contract for any path it has, so these only fill gaps until the merge.
 */
type Get<Q, D> = { method: 'GET'; query: Q; body: undefined; data: D };
type Post<B, D> = { method: 'POST'; query: undefined; body: B; data: D };

export interface SessionUser { id: string; email: string; display_name: string }
export interface WorkspaceMembership { id: string; name: string; role: string }
export interface SignedIn { user: SessionUser; workspaces: WorkspaceMembership[] }
export interface Passkey { id: string; name: string; created_at: string; last_used_at: string | null }
export interface Member { user_id: string; email: string; display_name: string; role: string; joined_at: string }
export interface Invitation { id: string; email: string; role: string; created_at: string; expires_at: string }
export interface AgentColors { primary: string; gradient_from: string; gradient_to: string }
export interface WidgetTimings { show_delay_ms: number; teaser_delay_ms: number; idle_nudge_delay_ms: number }
/** What agents/get returns for the Settings screen (the Agent of the contract plus the widget settings). */
export interface AgentSettings {
  id: string;
  name: string;
  role: string;
  persona: string;
  locale: string;
  avatar_url: string;
  company_name?: string;
  colors?: AgentColors;
  widget?: WidgetTimings;
  teaser_word?: string;
  allowed_origins?: string[];
}
export interface ConversationSummary {
  id: string;
  agent_id: string;
  started_at: string;
  last_message_at: string;
  messages: number;
  visitor: { id: string; verified_user_id: string | null };
  locale: string;
}
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
  'auth/email/start': Post<{ email: string }, { sent: true }>;
  'auth/email/verify': Post<{ email: string; code: string }, SignedIn>;
  'auth/passkey/register_options': Post<undefined, Record<string, unknown>>;
  'auth/passkey/register': Post<{ response: Record<string, unknown>; name?: string }, { passkey: Passkey }>;
  'auth/passkey/signin_options': Post<Record<string, never>, { options: Record<string, unknown>; challenge_id: string }>;
  'auth/passkey/signin': Post<{ challenge_id: string; response: Record<string, unknown> }, SignedIn>;
  'auth/passkey/list': Get<undefined, { passkeys: Passkey[] }>;
  'auth/passkey/delete': Post<{ passkey_id: string }, { deleted: true; passkey_id: string }>;
  'auth/session': Get<undefined, SignedIn & { csrf_token: string }>;
  'auth/signout': Post<undefined, { signed_out: true }>;
  'auth/signout_all': Post<undefined, { signed_out: true }>;
  'invitations/accept': Post<{ token: string }, { workspace: WorkspaceMembership }>;
  'members/list': Get<undefined, { members: Member[]; invitations: Invitation[] }>;
  'members/invite': Post<{ email: string; role: string }, { invitation: Invitation; invite_url: string }>;
  'members/update': Post<{ user_id: string; role: string }, { member: Member }>;
  'members/remove': Post<{ user_id: string }, { removed: true; user_id: string }>;
  'agents/update': Post<Partial<Omit<AgentSettings, 'id' | 'colors' | 'widget'>> & { agent_id: string; colors?: Partial<AgentColors>; widget?: Partial<WidgetTimings> }, { agent: AgentSettings }>;
  'conversations/list': Get<{ agent_id: string; limit?: number; cursor?: string }, { conversations: ConversationSummary[]; next_cursor: string | null }>;
  'conversations/get': Get<{ conversation_id: string }, { conversation: ConversationSummary; messages: { role: 'user' | 'assistant'; text: string; at: string }[] }>;
  'webhooks/test': Post<{ webhook_id: string }, Record<string, unknown>>;
  'connections/list': Get<undefined, { mcp_url: string; connections: Connection[] }>;
  'connections/calls': Get<{ connection_id: string; limit?: number }, { calls: { at: string; tool: string; agent_id: string | null; run_id: string | null; outcome: string }[] }>;
  'connections/withdraw': Post<{ connection_id: string }, { withdrawn: true }>;
  'connections/withdraw_all': Post<Record<string, never>, { withdrawn: number }>;
}
