import { ApiError, schemas } from '@service/shared';
import * as z from 'zod';
import type { Deps } from '../../infra/deps';
import { findAgentById } from '../../domains/agents/agents';
import { searchKnowledge } from '../../domains/knowledge/search';
import { createRecord, listRecords } from '../../domains/records/records';
import type { Turn } from '../../domains/skills/turns';
import { sendMail } from '../../infra/mail/send';

/** Who a serviceApi call acts for: the token's account, and the run and agent of its turn. */
export interface MethodCaller {
  deps: Deps;
  workspaceId: string;
  turn: Turn;
}

interface Method<S extends z.ZodType> {
  params: S;
  run(params: z.output<S>, caller: MethodCaller): Promise<object>;
}
const method = <S extends z.ZodType>(params: S, run: Method<S>['run']): Method<z.ZodType> => ({ params, run }) as Method<z.ZodType>;

const datetime = z.iso.datetime({ offset: true });
const SEARCH_SCAN = 100;
const LIST_LIMIT = 50;

/**
 * The platform methods the built-in skills reach with serviceApi, as `skills/<code>/<method>`. Each acts only in the
 * turn token's workspace; a method's capability is `<code>.<method>`, checked against the token's grants.
 */
export const SKILL_METHODS: Readonly<Record<string, Method<z.ZodType>>> = {
  'contacts/create': method(
    z.object(schemas.ContactFields).strict(),
    // The turn's run is the widget conversation when a visitor's agent creates it: the visitor's erasure removes it.
    (p, { deps, workspaceId, turn }) =>
      createRecord(
        deps,
        workspaceId,
        'contact',
        { name: p.name, email: p.email ?? null, phone: p.phone ?? null, company: p.company ?? null, notes: null },
        undefined,
        turn.runId,
      ),
  ),
  'contacts/search': method(z.object({ query: z.string().min(1).max(200) }).strict(), async (p, { deps, workspaceId }) => {
    const query = p.query.toLowerCase();
    const { items } = await listRecords<{ name: string; email: string | null }>(deps, workspaceId, 'contact', { limit: SEARCH_SCAN });
    return { contacts: items.filter((contact) => `${contact.name} ${contact.email ?? ''}`.toLowerCase().includes(query)) };
  }),
  'calendar/create_event': method(
    z
      .object({ title: z.string().min(1).max(200), starts_at: datetime, ends_at: datetime.optional(), attendees: z.array(z.email()).max(100).optional() })
      .strict(),
    (p, { deps, workspaceId }) =>
      createRecord(deps, workspaceId, 'event', {
        title: p.title,
        starts_at: p.starts_at,
        ends_at: p.ends_at ?? new Date(Date.parse(p.starts_at) + 30 * 60_000).toISOString(),
        attendees: p.attendees ?? [],
        location: null,
        description: null,
      }),
  ),
  'calendar/list_events': method(z.object({}).strict(), async (_p, { deps, workspaceId }) => ({
    events: (await listRecords(deps, workspaceId, 'event', { limit: LIST_LIMIT })).items,
  })),
  'tasks/create': method(
    z.object({ title: z.string().min(1).max(200), due_at: datetime.optional(), description: z.string().max(4000).optional() }).strict(),
    (p, { deps, workspaceId, turn }) =>
      createRecord(deps, workspaceId, 'task', {
        title: p.title,
        description: p.description ?? null,
        due_at: p.due_at ?? null,
        agent_id: turn.agentId,
        status: 'open' as const,
      }),
  ),
  'tasks/list': method(z.object({}).strict(), async (_p, { deps, workspaceId }) => ({
    tasks: (await listRecords(deps, workspaceId, 'task', { limit: LIST_LIMIT })).items,
  })),
  // The run's or the conversation's agent searches what its workspace made available to it, and nothing else.
  'knowledge/search': method(
    z.object({ query: z.string().trim().min(1).max(500), limit: z.number().int().min(1).max(10).optional() }).strict(),
    async (p, { deps, workspaceId, turn }) => ({
      results: await searchKnowledge(deps, { workspaceId, agentId: turn.agentId, query: p.query, ...(p.limit ? { limit: p.limit } : {}) }),
    }),
  ),
  'email/send': method(
    z.object({ to: z.email(), subject: z.string().min(1).max(200), body: z.string().min(1).max(20_000) }).strict(),
    async (p, { deps, workspaceId, turn }) => {
      const agent = await findAgentById(deps, turn.agentId);
      if (!agent || agent.workspaceId !== workspaceId) throw new ApiError('AGENT_NOT_FOUND', 'The agent of this turn no longer exists');
      const message = await createRecord(deps, workspaceId, 'email', {
        from: agent.email,
        to: p.to,
        subject: p.subject,
        body: p.body,
        run_id: turn.runId,
        agent_id: agent.id,
      });
      // The outbox keeps the record (email/outbox); the platform's mail transport delivers it.
      await sendMail(deps, { from: agent.email, to: p.to, subject: p.subject, text: p.body });
      return { message_id: message.id, from: agent.email, to: message.to };
    },
  ),
};
