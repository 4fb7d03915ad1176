import * as z from 'zod';
import type { EndpointContract } from './contract';
import { isoDateTime, limitParam } from './primitives';

/**
 * The audit log (issue 39 item 1): who changed the workspace's configuration or access, or read visitors' data in bulk,
 * from where, and what it was before and after. Entries are append-only; audit/list reads them. Spread into ENDPOINTS.
 */

export const AUDIT_ACTOR_TYPES = ['user', 'api_key', 'mcp_client', 'mcp_key', 'platform'] as const;
export type AuditActorType = (typeof AUDIT_ACTOR_TYPES)[number];

/** Days an entry is kept unless the workspace sets otherwise (DynamoDB's TTL removes it after), and the range it may set. */
export const AUDIT_RETENTION_DAYS_DEFAULT = 365;
export const AUDIT_RETENTION_LIMITS = { minDays: 30, maxDays: 3650 } as const;

/** An action is `<resource>.<verb>` in lower case with underscores (`agent.updated`, `auth.sign_in_failed`). */
export const AUDIT_ACTION_PATTERN = /^[a-z][a-z_]{0,39}\.[a-z][a-z_]{0,39}$/;

const Actor = z
  .object({
    type: z.enum(AUDIT_ACTOR_TYPES),
    id: z.string().nullable().meta({ description: 'The user, key or client id; null for the platform, or for a sign-in attempt of an unknown address' }),
    name: z.string().nullable().meta({ description: "The person's e-mail, the key's or client's name at the time" }),
  })
  .meta({ id: 'AuditActor' });

const Target = z.object({ type: z.string(), id: z.string().nullable(), name: z.string().nullable() }).meta({ id: 'AuditTarget' });

export const AuditEntry = z
  .object({
    id: z.string(),
    workspace_id: z.string(),
    time: isoDateTime,
    actor: Actor,
    action: z
      .string()
      .meta({ description: '`<resource>.<verb>`, e.g. `agent.updated`, `member.role_changed`, `api_key.created`, `visitor.exported`, `auth.sign_in_failed`' }),
    target: Target,
    before: z.unknown().nullable().meta({ description: 'The target before the change (null for a create or a read); secrets are `[redacted]`' }),
    after: z.unknown().nullable().meta({ description: 'The target after the change (null for a delete); secrets are `[redacted]`' }),
    source_ip: z.string().nullable(),
    user_agent: z.string().nullable(),
  })
  .meta({ id: 'AuditEntry' });

const idFilter = (what: string) => z.string().min(1).max(200).optional().meta({ description: what });

export const AuditListQuery = z
  .object({
    limit: limitParam,
    cursor: z.string().max(1000).optional().meta({ description: 'next_cursor of the previous page' }),
    actor: idFilter('Only entries by this actor: its id (a user, API key, MCP client or MCP key id)'),
    action: z
      .string()
      .regex(AUDIT_ACTION_PATTERN, { error: 'action is `<resource>.<verb>`, e.g. agent.updated' })
      .optional()
      .meta({ description: 'Only entries of this action' }),
    target: idFilter('Only entries about this target: its id (an agent, key, member, webhook id, …)'),
    from: isoDateTime.optional().meta({ description: 'Entries at or after this time' }),
    to: isoDateTime.optional().meta({ description: 'Entries before this time' }),
  })
  .refine((query) => query.from === undefined || query.to === undefined || Date.parse(query.from) < Date.parse(query.to), {
    error: 'to must be after from',
    path: ['to'],
  });

const AuditRetention = z.object({
  days: z
    .number()
    .int({ error: 'days is a whole number' })
    .min(AUDIT_RETENTION_LIMITS.minDays, { error: `days is at least ${AUDIT_RETENTION_LIMITS.minDays}` })
    .max(AUDIT_RETENTION_LIMITS.maxDays, { error: `days is at most ${AUDIT_RETENTION_LIMITS.maxDays}` })
    .meta({ description: `Days an entry is kept after it was recorded (${AUDIT_RETENTION_DAYS_DEFAULT} unless set)` }),
});

export const AUDIT_ENDPOINTS = {
  auditList: {
    path: 'audit/list',
    method: 'GET',
    summary: "The workspace's audit log, newest first: who changed configuration or access, or read visitors' data, with the change (owners and admins)",
    query: AuditListQuery,
    data: z.object({ entries: z.array(AuditEntry), next_cursor: z.string().nullable() }),
    status: 200,
    access: 'audit',
  },
  auditRetentionGet: {
    path: 'audit/retention_get',
    method: 'GET',
    summary: 'How long the workspace keeps audit entries',
    data: z.object({ retention: AuditRetention }),
    status: 200,
    access: 'audit',
  },
  auditRetentionSet: {
    path: 'audit/retention_set',
    method: 'POST',
    summary: `Set how long audit entries are kept (${AUDIT_RETENTION_LIMITS.minDays} to ${AUDIT_RETENTION_LIMITS.maxDays} days); applies to entries recorded from then on (an entry is never changed)`,
    body: AuditRetention.strict(),
    data: z.object({ retention: AuditRetention }),
    status: 200,
    access: 'audit',
  },
} as const satisfies Record<string, EndpointContract>;
