import type { DataOf, EndpointName } from '@service/shared';
import type { Deps } from '../../../infra/deps';
import type { HttpEvent } from '../../../infra/http/event';
import { recordAudit, type AuditActor } from '../../../domains/audit/audit';
import { AUDITED, type AuditSpec } from '../audit-trail';
import type { ApiRequestState } from '../context';
import type { EndpointHandler, EndpointHandlers, EndpointInput } from '../endpoints/types';

/** Who called: the signed-in person, the API key, or (the operator API, master key) the platform. */
export const actorOf = (state: Pick<ApiRequestState, 'session' | 'apiKey'>): AuditActor =>
  state.session
    ? { type: 'user', id: state.session.userId, name: state.session.email }
    : state.apiKey
      ? { type: 'api_key', id: state.apiKey.id, name: state.apiKey.name }
      : { type: 'platform', id: null, name: 'operator' };

type Handlers = Partial<EndpointHandlers<EndpointName>>;

/** What the recorder needs of a call (the REST pipeline's state; the operator API builds one for its master-key calls). */
export type AuditedCall = Pick<ApiRequestState, 'endpointName' | 'session' | 'apiKey' | 'client'>;

/** The target as it is now, through the read endpoint the spec names (null when it does not exist yet, or this function does not serve that read). */
async function readBefore<N extends EndpointName>(spec: AuditSpec<N>, input: EndpointInput<N>, handlers: Handlers): Promise<unknown> {
  if (!spec.before) return null;
  const read = handlers[spec.before.read] as EndpointHandler<EndpointName> | undefined;
  if (!read) return null;
  try {
    const { data } = await read({ ...input, query: spec.before.query(input) as never, body: undefined as never });
    return spec.before.pick(data as never, input);
  } catch {
    // Not there before (or not readable): the change itself says whether it may go ahead.
    return null;
  }
}

/** How the endpoint middleware calls an endpoint: as it is, or with its audit entry recorded (auditedRunner). */
export type EndpointRunner = <N extends EndpointName>(
  state: AuditedCall,
  event: HttpEvent,
  handle: EndpointHandler<N>,
  input: EndpointInput<N>,
) => ReturnType<EndpointHandler<N>>;

/**
 * Runs an endpoint; when it changes configuration or access (AUDITED), reads the target first and records the entry
 * after it succeeded and before the answer leaves: an answer of success always has its entry. A retry under the same
 * Idempotency-Key reuses the action's seed and time, so its entry has the same key and is stored once. Only the
 * functions serving such endpoints are given it (and the audit table's PutItem grant).
 */
export const auditedRunner =
  (deps: Deps, handlers: Handlers): EndpointRunner =>
  async <N extends EndpointName>(state: AuditedCall, event: HttpEvent, handle: EndpointHandler<N>, input: EndpointInput<N>) => {
    const spec = AUDITED[state.endpointName as N] as AuditSpec<N> | undefined;
    if (!spec) return handle(input);
    const before = await readBefore(spec, input, handlers);
    const result = await handle(input);
    const data = result.data as DataOf<N>;
    await recordAudit(deps, {
      workspaceId: spec.workspaceId ? spec.workspaceId(data) : input.workspace.id,
      actor: actorOf(state),
      action: typeof spec.action === 'string' ? spec.action : spec.action(input, data),
      target: spec.target(input, data),
      before,
      after: spec.after ? spec.after(data, input) : data,
      sourceIp: state.client?.ip ?? null,
      userAgent: state.client?.userAgent ?? null,
      ...(input.action.seed !== undefined ? { seed: input.action.seed, at: input.action.at } : {}),
    });
    return result;
  };
