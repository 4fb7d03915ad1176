import type { Deps } from '../../../infra/deps';
import { successResult } from '../../../infra/http/event';
import { apiState, type ApiRequest } from '../context';
import { ApiError, type EndpointName } from '@service/shared';
import type { EndpointHandler, EndpointHandlers } from '../endpoints/types';
import type { EndpointRunner } from './audit';

const asItIs: EndpointRunner = (_state, _event, handle, input) => handle(input);

/**
 * The endpoint itself, as the innermost middleware: the first `after` to run, it answers from the state the earlier
 * middlewares left in `request.internal` (through `run`: with the audit entry of a change, middleware/audit.ts); the outer `after`s (idempotency, rate-limit headers) then see its response.
 */
export const endpoint = (deps: Deps, handlers: Partial<EndpointHandlers<EndpointName>>, run: EndpointRunner = asItIs) => ({
  after: async (request: ApiRequest) => {
    const state = apiState(request);
    const handle = handlers[state.endpointName] as EndpointHandler<typeof state.endpointName> | undefined;
    // A function serving some endpoints only (its route covers no other): anything else is not here.
    if (!handle) throw new ApiError('NOT_FOUND', `No such resource here: ${state.endpoint.path}`);
    const { data, msg, cookies } = await run(state, request.event, handle, {
      deps,
      workspace: state.workspace!,
      apiKey: state.apiKey,
      lang: state.lang,
      body: state.body as never,
      query: state.query as never,
      action: state.action ?? { at: deps.now() },
      ...(state.tokensUsed ? { tokensUsed: state.tokensUsed } : {}),
      ...(state.session ? { session: state.session } : {}),
      ...(state.role ? { role: state.role } : {}),
      ...(state.client ? { client: state.client } : {}),
    });
    request.response = successResult(state.endpoint.status, data, msg ?? 'OK');
    if (cookies?.length) request.response.cookies = cookies;
  },
});
