import { DomainError } from '@service/shared';
import type { RetentionDays } from '@service/shared/retention';
import { getWorkspace, setRetentionDays, setUserHashAllowed } from '../../../domains/access/workspaces';
import { eraseVisitor, listErasures, type ErasureItem, type Requester } from '../../../domains/visitors/erase';
import { exportVisitor } from '../../../domains/visitors/export';
import { NOTHING_FOUND, type VisitorTarget } from '../../../domains/visitors/visitor-data';
import { messageResponse, summaryResponse } from './conversation-responses';
import type { EndpointHandlers, EndpointInput } from './types';

export type VisitorEndpoint =
  'visitorsExport' | 'visitorsErase' | 'visitorsAuditList' | 'visitorsRetentionGet' | 'visitorsRetentionSet' | 'visitorsIdentityGet' | 'visitorsIdentitySet';

export const visitorOf = (body: { visitor_id?: string | undefined; verified_user_id?: string | undefined; email?: string | undefined }): VisitorTarget =>
  body.visitor_id !== undefined ? { visitorId: body.visitor_id } : body.email !== undefined ? { email: body.email } : { userId: body.verified_user_id! };

/** Who asked: the signed-in member, or the API key (acting for the workspace). */
const requesterOf = (input: Pick<EndpointInput<'visitorsErase'>, 'session' | 'apiKey'>): Requester =>
  input.session
    ? { kind: 'member', id: input.session.userId, name: input.session.displayName || input.session.email }
    : { kind: 'api_key', id: input.apiKey?.id ?? null, name: input.apiKey?.name ?? null };

const erasureResponse = (erasure: ErasureItem) => ({
  id: erasure.id,
  state: erasure.state,
  reason: erasure.reason,
  requested_by: erasure.requestedBy,
  visitor_hash: erasure.visitorHash,
  started_at: erasure.startedAt,
  completed_at: erasure.completedAt ?? null,
  // Erasures recorded before a kind of data existed have no count of it.
  removed: { ...NOTHING_FOUND, ...erasure.removed },
});

const retentionOf = (days: number | undefined) => ({ days: (days ?? null) as RetentionDays | null });

/** A visitor's data: export, erasure with its audit record, and the workspace's retention. */
export const visitorEndpoints: EndpointHandlers<VisitorEndpoint> = {
  visitorsExport: async ({ deps, workspace, body }) => {
    const exported = await exportVisitor(deps, workspace.id, visitorOf(body));
    return {
      data: {
        exported_at: deps.now().toISOString(),
        visitor: { visitor_id: body.visitor_id ?? null, verified_user_id: body.verified_user_id ?? null, email: body.email ?? null },
        conversations: exported.conversations.map(({ summary, messages, pendingActions }) => ({
          conversation: summaryResponse(summary),
          messages: messages.map((message) => messageResponse(message)),
          pending_actions: pendingActions.map((action) => ({
            id: action.id,
            tool_name: action.toolName,
            summary: action.summary,
            input: action.input,
            expires_at: action.expiresAt,
          })),
        })),
        contacts: exported.contacts,
        webhook_deliveries: exported.deliveries.map((delivery) => ({
          subscription_id: delivery.subscriptionId,
          event_id: delivery.eventId,
          event: delivery.event,
          created_at: delivery.createdAt,
          payload: delivery.payload,
        })),
        mails: exported.mails,
      },
    };
  },

  visitorsErase: async (input) => {
    const erasure = await eraseVisitor(input.deps, input.workspace.id, visitorOf(input.body), requesterOf(input), input.action);
    return { data: { erasure: erasureResponse(erasure) }, msg: `Erased ${erasure.removed?.conversations ?? 0} conversation(s) and what derived from them` };
  },

  visitorsAuditList: async ({ deps, workspace, query }) => {
    const { erasures, next } = await listErasures(deps, workspace.id, query.limit, query.cursor);
    return { data: { erasures: erasures.map(erasureResponse), next_cursor: next } };
  },

  visitorsRetentionGet: async ({ deps, workspace }) => ({ data: { retention: retentionOf((await getWorkspace(deps, workspace.id))?.retentionDays) } }),

  visitorsRetentionSet: async ({ deps, workspace, body }) => {
    if (!(await setRetentionDays(deps, workspace.id, body.days, deps.now().toISOString()))) throw new DomainError('NOT_FOUND', 'No such workspace');
    return {
      data: { retention: { days: body.days } },
      msg: body.days === null ? 'Conversations are kept' : `Conversations are erased ${body.days} days after their last activity`,
    };
  },

  // Absent on a workspace older than signed tokens: it keeps the user hash it was built on.
  visitorsIdentityGet: async ({ deps, workspace }) => ({
    data: { identity: { allow_user_hmac: (await getWorkspace(deps, workspace.id))?.userHashAllowed !== false } },
  }),

  visitorsIdentitySet: async ({ deps, workspace, body }) => {
    if (!(await setUserHashAllowed(deps, workspace.id, body.allow_user_hmac))) throw new DomainError('NOT_FOUND', 'No such workspace');
    return {
      data: { identity: body },
      msg: body.allow_user_hmac
        ? 'Visitors may prove themselves with a signed token or the older user hash'
        : 'Visitors prove themselves with signed tokens only',
    };
  },
};
