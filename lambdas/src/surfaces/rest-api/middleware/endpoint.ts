import type { Deps } from '../../../infra/deps';
import { successResult } from '../../../infra/http/event';
import { apiState, type ApiRequest } from '../context';
import { ApiError, type EndpointName } from '@service/shared';
import type { EndpointHandler, EndpointHandlers } from '../endpoints/types';

/**
 * The endpoint itself, as the innermost middleware: the first `after` to run, it answers from the state the earlier
 * middlewares left in `request.internal`; the outer `after`s (idempotency, rate-limit headers) then see its response.
 */
export const endpoint = (deps: Deps, handlers: Partial<EndpointHandlers<EndpointName>>) => ({
  after: async (request: ApiRequest) => {
    const state = apiState(request);
    const handle = handlers[state.endpointName] as EndpointHandler<typeof state.endpointName> | undefined;
    // A function serving some endpoints only (its route covers no other): anything else is not here.
    if (!handle) throw new ApiError('NOT_FOUND', `No such resource here: ${state.endpoint.path}`);
    const { data, msg, cookies } = await handle({
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
