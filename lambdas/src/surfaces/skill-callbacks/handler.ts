import { ApiError, ROUTES } from '@service/shared';
import type { Deps } from '../../infra/deps';
import { successResult, type HttpEvent, type HttpResult } from '../../infra/http/event';
import { parseJsonBody } from '../../infra/http/json-body';
import { routeHandler } from '../../infra/http/routes';
import { SKILL_METHODS } from './methods';
import { authenticateTurn } from './turn-auth';

async function serviceCall(deps: Deps, event: HttpEvent, skill: string, name: string): Promise<HttpResult> {
  const method = SKILL_METHODS[`${skill}/${name}`];
  if (!method) throw new ApiError('NOT_FOUND', `No platform method skills/${skill}/${name}`);
  const { caller, turn } = await authenticateTurn(deps, event, skill);
  // The skill already checked the tool's grant; the platform checks it again for the method it serves.
  if (caller.capabilities && !caller.capabilities.includes(`${skill}.${name}`)) {
    throw new ApiError('FORBIDDEN', `The capability ${skill}.${name} is not granted to this caller`);
  }
  const params = parseJsonBody(event, method.params, { maxBytes: deps.config.maxBodyBytes, whenEmpty: {} });
  const data = await method.run(params, { deps, workspaceId: caller.accountId, turn });
  return successResult(200, data, 'OK');
}

/** The skills' callback surface: POST /{lang}/api/v1/skills/{code}/{method}/ (serviceApi), turn token only. */
export function createSkillCallbacksHandler(deps: Deps) {
  return routeHandler(ROUTES.skillCallbacks, ['POST'], (event, params) => serviceCall(deps, event, params.code!, params.proxy!));
}
