import type { DataOf, EndpointName, QueryOf } from '@service/shared';
import { visitorHash } from '../../domains/visitors/erase';
import { visitorOf } from './endpoints/visitors';
import type { AuditTarget } from '../../domains/audit/audit';
import type { EndpointInput } from './endpoints/types';

/**
 * What the REST pipeline records in the audit log (docs/audit.md) for each endpoint that changes a workspace's
 * configuration or access, or reads visitors' data in bulk: the action, the target, and where `before` is read from
 * (an endpoint that reads the same thing, called with the same caller before the change). `after` is what the endpoint
 * answered (`after` narrows it), so both are the API's own shapes, then redacted by the one rule of domains/audit.
 */
export interface AuditSpec<N extends EndpointName> {
  action: string | ((input: EndpointInput<N>, data: DataOf<N>) => string);
  target: (input: EndpointInput<N>, data: DataOf<N>) => AuditTarget;
  before?: BeforeRead<N, EndpointName>;
  after?: (data: DataOf<N>, input: EndpointInput<N>) => unknown;
  /** The workspace the change is about, when the request names none (accepting an invitation). */
  workspaceId?: (data: DataOf<N>) => string;
}

/** A read endpoint of the same function, its query from the change's input, and the part of its answer that is the target. */
export interface BeforeRead<N extends EndpointName, R extends EndpointName> {
  read: R;
  query: (input: EndpointInput<N>) => QueryOf<R>;
  pick: (data: DataOf<R>, input: EndpointInput<N>) => unknown;
}

const before = <N extends EndpointName, R extends EndpointName>(
  read: R,
  query: (input: EndpointInput<N>) => QueryOf<R>,
  pick: (data: DataOf<R>, input: EndpointInput<N>) => unknown,
): BeforeRead<N, R> => ({ read, query, pick });

const agentTarget = (id: string, name?: string | null): AuditTarget => ({ type: 'agent', id, name: name ?? null });
const agentBefore = <N extends EndpointName>(id: (input: EndpointInput<N>) => string) =>
  before<N, 'agentsGet'>(
    'agentsGet',
    (input) => ({ agent_id: id(input) }),
    (data) => data.agent,
  ) as BeforeRead<N, EndpointName>;
const sourceBefore = <N extends EndpointName>(id: (input: EndpointInput<N>) => string) =>
  before<N, 'knowledgeSourceGet'>(
    'knowledgeSourceGet',
    (input) => ({ source_id: id(input) }),
    (data) => data.source,
  ) as BeforeRead<N, EndpointName>;
const memberBefore = <N extends EndpointName>(userId: (input: EndpointInput<N>) => string) =>
  before<N, 'membersList'>(
    'membersList',
    () => undefined,
    (data, input) => data.members.find((member) => member.user_id === userId(input)) ?? null,
  ) as BeforeRead<N, EndpointName>;
/** A visitor is named in the log by the same hash as the erasure record: which visitor, without keeping their id. */
const visitorTarget = (input: EndpointInput<'visitorsExport' | 'visitorsErase'>): AuditTarget => ({
  type: 'visitor',
  id: visitorHash(input.workspace.id, visitorOf(input.body)),
});

/** A workspace-wide setting: the workspace is the target, `before` the setting's own read (it takes no query). */
function workspaceSetting<N extends EndpointName, R extends EndpointName>(
  action: string,
  read: R,
  pick: (data: DataOf<R>) => unknown,
  after?: (data: DataOf<N>) => unknown,
): AuditSpec<N> {
  return {
    action,
    target: (input) => ({ type: 'workspace', id: input.workspace.id, name: input.workspace.name }),
    before: before<N, R>(read, () => undefined as QueryOf<R>, pick) as BeforeRead<N, EndpointName>,
    ...(after ? { after } : {}),
  };
}

type Specs = { [N in EndpointName]?: AuditSpec<N> };

export const AUDITED: Specs = {
  // Agents: persona, settings, skills, drafts, publish, identity secrets.
  agentsCreate: { action: 'agent.created', target: (_, data) => agentTarget(data.agent.id, data.agent.name), after: (data) => data.agent },
  agentsUpdate: {
    action: 'agent.updated',
    target: (input, data) => agentTarget(input.body.agent_id, data.agent.name),
    before: agentBefore((input) => input.body.agent_id),
    after: (data) => data.agent,
  },
  agentsIdentitySecret: { action: 'agent.identity_secret_rotated', target: (input) => agentTarget(input.body.agent_id) },
  agentsDraftUpdate: {
    action: 'agent.draft_updated',
    target: (input) => agentTarget(input.body.agent_id),
    before: before<'agentsDraftUpdate', 'agentsDraftGet'>(
      'agentsDraftGet',
      (input) => ({ agent_id: input.body.agent_id }),
      (data) => data.draft,
    ) as BeforeRead<'agentsDraftUpdate', EndpointName>,
    after: (data) => data.draft,
  },
  agentsDraftPublish: { action: 'agent.published', target: (input) => agentTarget(input.body.agent_id), before: agentBefore((input) => input.body.agent_id) },
  skillsInstall: { action: 'skill.installed', target: (input) => agentTarget(input.body.agent_id), after: (data) => data },
  skillsUninstall: { action: 'skill.uninstalled', target: (input) => agentTarget(input.body.agent_id), after: () => null },
  skillsRegister: {
    action: 'skill.registered',
    target: (_, data) => ({ type: 'skill', id: data.skill.code, name: data.skill.name }),
    after: (data) => data.skill,
  },
  rolesCreate: { action: 'role.created', target: (_, data) => ({ type: 'role', id: data.role.name, name: data.role.name }), after: (data) => data.role },
  grantsCreate: { action: 'grant.created', target: (input) => ({ type: 'role', id: input.body.role, name: input.body.role }), after: (_, input) => input.body },
  grantsRevoke: { action: 'grant.revoked', target: (input) => ({ type: 'role', id: input.body.role, name: input.body.role }), after: () => null },
  // Knowledge sources.
  knowledgeSourceCreate: {
    action: 'knowledge_source.created',
    target: (_, data) => ({ type: 'knowledge_source', id: data.source.id, name: data.source.name }),
    after: (data) => data.source,
  },
  knowledgeSourceUpdate: {
    action: 'knowledge_source.updated',
    target: (_, data) => ({ type: 'knowledge_source', id: data.source.id, name: data.source.name }),
    before: sourceBefore((input) => input.body.source_id),
    after: (data) => data.source,
  },
  knowledgeSourceDelete: {
    action: 'knowledge_source.deleted',
    target: (input) => ({ type: 'knowledge_source', id: input.body.source_id }),
    before: sourceBefore((input) => input.body.source_id),
    after: () => null,
  },
  knowledgeDocumentUpload: {
    action: 'knowledge_document.uploaded',
    target: (_, data) => ({ type: 'knowledge_document', id: data.document.id, name: data.document.name }),
    after: (data) => data.document,
  },
  knowledgeDocumentDelete: {
    action: 'knowledge_document.deleted',
    target: (input) => ({ type: 'knowledge_document', id: input.body.document_id }),
    after: () => null,
  },
  knowledgeAnswerCreate: {
    action: 'knowledge_answer.created',
    target: (_, data) => ({ type: 'knowledge_document', id: data.document.id, name: data.document.name }),
    after: (data) => data.document,
  },
  // Members, roles, invitations.
  membersInvite: {
    action: 'invitation.created',
    target: (_, data) => ({ type: 'invitation', id: data.invitation.id, name: data.invitation.email }),
    after: (data) => data.invitation,
  },
  membersUpdate: {
    action: 'member.role_changed',
    target: (input, data) => ({ type: 'member', id: input.body.user_id, name: data.member.email }),
    before: memberBefore((input) => input.body.user_id),
    after: (data) => data.member,
  },
  membersRemove: {
    action: 'member.removed',
    target: (input) => ({ type: 'member', id: input.body.user_id }),
    before: memberBefore((input) => input.body.user_id),
    after: () => null,
  },
  membersInvitationRevoke: { action: 'invitation.revoked', target: (input) => ({ type: 'invitation', id: input.body.invitation_id }), after: () => null },
  invitationsAccept: {
    action: 'member.joined',
    target: (input) => ({ type: 'member', id: input.session?.userId ?? null, name: input.session?.email ?? null }),
    after: (data) => ({ role: data.workspace.role }),
    workspaceId: (data) => data.workspace.id,
  },
  // API keys, MCP keys, connections.
  keysCreate: { action: 'api_key.created', target: (_, data) => ({ type: 'api_key', id: data.key.id, name: data.key.name }), after: (data) => data.key },
  keysRevoke: { action: 'api_key.revoked', target: (_, data) => ({ type: 'api_key', id: data.key.id, name: data.key.name }), after: (data) => data.key },
  connectionsKeyCreate: {
    action: 'mcp_key.created',
    target: (_, data) => ({ type: 'mcp_key', id: data.key.id, name: data.key.name }),
    after: (data) => data.key,
  },
  connectionsKeyRevoke: {
    action: 'mcp_key.revoked',
    target: (_, data) => ({ type: 'mcp_key', id: data.key.id, name: data.key.name }),
    after: (data) => data.key,
  },
  connectionsWithdraw: { action: 'connection.withdrawn', target: (input) => ({ type: 'connection', id: input.body.connection_id }), after: () => null },
  connectionsWithdrawAll: { action: 'connection.withdrawn_all', target: () => ({ type: 'connection', id: null }), after: (data) => data },
  // Webhooks, telemetry, availability.
  webhooksCreate: {
    action: 'webhook.created',
    target: (_, data) => ({ type: 'webhook', id: data.subscription.id, name: data.subscription.url }),
    after: (data) => data,
  },
  webhooksDelete: {
    action: 'webhook.deleted',
    target: (input) => ({ type: 'webhook', id: input.body.webhook_id }),
    before: before<'webhooksDelete', 'webhooksList'>(
      'webhooksList',
      () => undefined,
      (data, input) => data.subscriptions.find((subscription) => subscription.id === input.body.webhook_id) ?? null,
    ) as BeforeRead<'webhooksDelete', EndpointName>,
    after: () => null,
  },
  telemetrySettingsUpdate: workspaceSetting(
    'telemetry.updated',
    'telemetrySettingsGet',
    (data) => data.settings,
    (data) => data.settings,
  ),
  conversationsAvailabilitySet: workspaceSetting('availability.updated', 'conversationsAvailability', (data) => data),
  // Visitors' data: the bulk read and the erasure (never the data itself: the counts).
  visitorsExport: {
    action: 'visitor.exported',
    target: visitorTarget,
    after: (data) => ({ conversations: data.conversations.length, contacts: data.contacts.length, webhook_deliveries: data.webhook_deliveries.length }),
  },
  visitorsErase: { action: 'visitor.erased', target: visitorTarget, after: (data) => data.erasure },
  visitorsRetentionSet: workspaceSetting(
    'visitors.retention_changed',
    'visitorsRetentionGet',
    (data) => data.retention,
    (data) => data.retention,
  ),
  visitorsIdentitySet: workspaceSetting(
    'visitors.identity_changed',
    'visitorsIdentityGet',
    (data) => data.identity,
    (data) => data.identity,
  ),
  // The audit log's own retention.
  auditRetentionSet: workspaceSetting(
    'audit.retention_changed',
    'auditRetentionGet',
    (data) => data.retention,
    (data) => data.retention,
  ),
};
