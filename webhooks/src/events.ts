/** The data of `agent.command.completed`: a command run finished with a result. */
export interface CommandCompletedData {
  run_id: string;
  agent_id: string;
  agent_name: string;
  status: string;
  instruction: string;
  result_text: string;
  /** How many steps the run took, as agents/command_status lists them (status changes, model turns, tool calls). */
  steps_count: number;
}

/** The data of `agent.command.failed`: a command run ended without a result; `error` says why. */
export interface CommandFailedData {
  run_id: string;
  agent_id: string;
  agent_name: string;
  status: string;
  instruction: string;
  error: string;
  /** How many steps the run took, as agents/command_status lists them. */
  steps_count: number;
}

/** The data of `agent.command.action_required`: a run with autonomy `confirm` waits for a person to approve `action`. */
export interface CommandActionRequiredData {
  run_id: string;
  agent_id: string;
  agent_name: string;
  status: 'requires_action';
  instruction: string;
  /** What the agent wants to do; answer with agents/command_approve or agents/command_reject before `expires_at`. */
  action: {
    approval_id: string;
    /** `code.action` of the tool. */
    capability: string;
    /** As the model gave them, secret-looking values replaced by "[redacted]". */
    arguments: Record<string, unknown>;
    /** The agent's own reason, in one sentence. */
    reason: string;
    requested_at: string;
    expires_at: string;
  };
  /** How many steps the run took so far, as agents/command_status lists them. */
  steps_count: number;
}

/** The data of `knowledge.source.synced`: a knowledge source finished a sync; its documents are searchable. */
export interface KnowledgeSourceSyncedData {
  source_id: string;
  source_name: string;
  type: 'website' | 'files' | 'answers';
  status: 'ready';
  documents: number;
  chunks: number;
  /** Documents indexed again because their text changed (new ones included), and those removed because they disappeared. */
  changed: number;
  removed: number;
  /** Pages that could not be indexed this time (each document says why). */
  failed: number;
  synced_at: string;
  next_sync_at: string | null;
}

/** The data of `knowledge.source.failed`: a sync could not index the source at all; `error` says why. */
export interface KnowledgeSourceFailedData {
  source_id: string;
  source_name: string;
  type: 'website' | 'files' | 'answers';
  status: 'failed';
  error: string;
  failed_at: string;
}

/** A conversation as the conversation events describe it (conversations/get answers the transcript). */
export interface ConversationRef {
  conversation_id: string;
  agent_id: string;
  /** `widget` (the chat widget) or `email` (the customer writes by e-mail). */
  channel: 'widget' | 'email';
  /** An e-mail conversation's customer address and subject; null for the widget. */
  email: { address: string; subject: string } | null;
  /** `agent`, `people` (a teammate has it, or it waits for one: `assignee` null) or `closed`. */
  handler: 'agent' | 'people' | 'closed';
  assignee: { id: string; name: string } | null;
  visitor: { id: string; verified_user_id: string | null };
}

/** The data of `conversation.handoff_requested`: a conversation passed to people and waits for a teammate to claim it. */
export interface ConversationHandoffRequestedData extends ConversationRef {
  /** `visitor` (Talk to a person), `agent` (its handoff tool), `keyword` (a handoff keyword) or `teammate`. */
  reason: 'visitor' | 'agent' | 'keyword' | 'teammate';
  /** The agent's short summary for the teammate; empty when none was written. */
  summary: string;
  requested_at: string;
}

/**
 * The data of `conversation.message_created`: a message of a conversation people handle, or a teammate's: the
 * visitor's (`user`), a teammate's (`teammate`) or an internal note (`note`). The agent's own replies are not sent.
 */
export interface ConversationMessageCreatedData extends ConversationRef {
  message: {
    seq: number;
    role: 'user' | 'teammate' | 'note';
    /** Plain text, never markup. */
    text: string;
    at: string;
    author: { id: string; name: string } | null;
  };
}

/** The data of `conversation.closed`: nobody answers the conversation any more. */
export interface ConversationClosedData extends ConversationRef {
  closed_by: { id: string; name: string } | null;
  closed_at: string;
}

/** The data of `eval.run.completed`: an eval run of an agent's suite finished (evals/run_status has every result). */
export interface EvalRunCompletedData {
  eval_run_id: string;
  agent_id: string;
  /** Played against the agent's draft rather than the live agent. */
  draft: boolean;
  /** `failed`: the run could not be played at all (`error` says why); otherwise `completed`, passing or not. */
  status: 'completed' | 'failed';
  scenarios: number;
  passed: number;
  failed: number;
  pass_rate: number | null;
  /** Against the previous run of the same suite: scenario ids that pass now but did not, and the reverse. */
  fixed: string[];
  broke: string[];
  error: string | null;
  completed_at: string;
}

/** Who did what an audit entry records. */
export interface AuditActor {
  type: 'user' | 'api_key' | 'mcp_client' | 'mcp_key' | 'platform';
  /** The user, key or client id; null for the platform, or a sign-in attempt of an unknown address. */
  id: string | null;
  /** The person's e-mail, the key's or client's name at the time. */
  name: string | null;
}

/**
 * The data of `audit.event`: one entry of the workspace's audit log, as audit/list returns it (for a SIEM). Before and
 * after are the target's state around the change, with secrets `[redacted]`.
 */
export interface AuditEventData {
  id: string;
  workspace_id: string;
  time: string;
  actor: AuditActor;
  /** `<resource>.<verb>`: `agent.updated`, `member.role_changed`, `api_key.created`, `visitor.exported`, `auth.sign_in_failed`, … */
  action: string;
  target: { type: string; id: string | null; name: string | null };
  before: unknown;
  after: unknown;
  source_ip: string | null;
  user_agent: string | null;
}

/** The data of `webhook.test`: sent to one endpoint on request (the dashboard's "Send test event"), never emitted. */
export interface WebhookTestData {
  webhook_id: string;
  message: string;
}

/** Event type -> its `data`. */
export interface WebhookEventData {
  'agent.command.completed': CommandCompletedData;
  'agent.command.failed': CommandFailedData;
  'agent.command.action_required': CommandActionRequiredData;
  'knowledge.source.synced': KnowledgeSourceSyncedData;
  'knowledge.source.failed': KnowledgeSourceFailedData;
  'conversation.handoff_requested': ConversationHandoffRequestedData;
  'conversation.message_created': ConversationMessageCreatedData;
  'conversation.closed': ConversationClosedData;
  'eval.run.completed': EvalRunCompletedData;
  'audit.event': AuditEventData;
  'webhook.test': WebhookTestData;
}

export type WebhookEventType = keyof WebhookEventData;

/** One delivery's body. A union over the event types: narrow on `event` to get the matching `data`. */
export type WebhookEvent<E extends WebhookEventType = WebhookEventType> = {
  [K in E]: { id: string; event: K; created_at: string; data: WebhookEventData[K] };
}[E];
