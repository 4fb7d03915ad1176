import { ApiError, ROUTES } from '@service/shared';
import type { Deps } from '../../infra/deps';
import { header, successResult, type HttpEvent, type HttpResult } from '../../infra/http/event';
import { parseJsonBody } from '../../infra/http/json-body';
import { requestOrigin } from '../../infra/http/cookies';
import { routeHandler } from '../../infra/http/routes';
import { ADMIN_ROUTES, PROVISION_ROUTE, provisionWorkspace, runAdminRoute } from './admin';
import { authenticateMaster } from './master-auth';

async function adminCall(deps: Deps, event: HttpEvent, lang: string, name: string): Promise<HttpResult> {
  await authenticateMaster(deps, event);
  const options = { maxBytes: deps.config.maxBodyBytes, whenEmpty: {} };
  if (name === PROVISION_ROUTE.name) {
    const { data, msg } = await provisionWorkspace(
      deps,
      parseJsonBody(event, PROVISION_ROUTE.body, options),
      requestOrigin(event, deps.config.dashboardOrigin),
    );
    return successResult(201, data, msg);
  }
  const route = ADMIN_ROUTES.get(name);
  if (!route) throw new ApiError('NOT_FOUND', `No administrative route admin/${name}`);
  const userAgent = header(event, 'user-agent');
  const client = {
    ip: event.requestContext.http.sourceIp,
    origin: requestOrigin(event, deps.config.dashboardOrigin),
    secureCookies: true,
    ...(userAgent ? { userAgent } : {}),
  };
  const { status, data, msg } = await runAdminRoute(deps, lang, route, parseJsonBody(event, route.body, options), event, client);
  return successResult(status, data, msg);
}

/** The operators' surface: POST /{lang}/api/v1/admin/<resource>/<action>/ (provisioning, administration), master key only. */
export function createOperatorApiHandler(deps: Deps) {
  return routeHandler(ROUTES.operatorApi, ['POST'], (event, params) => adminCall(deps, event, params.lang!, params.proxy!));
}
