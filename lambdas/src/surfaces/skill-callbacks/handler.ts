import { ApiError } from '@service/shared';
import type { Deps } from '../../infra/deps';
import { successResult, type HttpEvent, type HttpResult } from '../../infra/http/event';
import { ADMIN_ROUTES, assertWorkspace, PROVISION_ROUTE, provisionWorkspace } from '../operator-api/admin';
import { parseBody } from './body';
import { failureOf } from './errors';
import { authenticateMaster } from '../operator-api/master-auth';
import { SKILL_METHODS } from './methods';
import { matchSkillApiPath } from './paths';
import { authenticateTurn } from './turn-auth';

async function serviceCall(deps: Deps, event: HttpEvent, skill: string, name: string): Promise<HttpResult> {
  const method = SKILL_METHODS[`${skill}/${name}`];
  if (!method) throw new ApiError('NOT_FOUND', `No platform method skills/${skill}/${name}`);
  const { caller, turn } = await authenticateTurn(deps, event, skill);
  // The skill already checked the tool's grant; the platform checks it again for the method it serves.
  if (caller.capabilities && !caller.capabilities.includes(`${skill}.${name}`)) {
    throw new ApiError('FORBIDDEN', `The capability ${skill}.${name} is not granted to this caller`);
  }
  const params = parseBody(event, method.params, deps.config.maxBodyBytes);
  const data = await method.run(params, { deps, workspaceId: caller.accountId, turn });
  return successResult(200, data, 'OK');
}

async function adminCall(deps: Deps, event: HttpEvent, name: string): Promise<HttpResult> {
  await authenticateMaster(deps, event);
  if (name === PROVISION_ROUTE.name) {
    const { data, msg } = await provisionWorkspace(deps, parseBody(event, PROVISION_ROUTE.body, deps.config.maxBodyBytes));
    return successResult(201, data, msg);
  }
  const route = ADMIN_ROUTES[name];
  if (!route) throw new ApiError('NOT_FOUND', `No administrative route admin/${name}`);
  const body = parseBody(event, route.body, deps.config.maxBodyBytes) as { workspace_id: string };
  await assertWorkspace(deps, body.workspace_id);
  const { data, msg } = await route.run(deps, body.workspace_id, body);
  return successResult(route.status, data, msg);
}

/**
 * The skill-facing API Lambda: the serviceApi routes of the built-in skills (turn token only) and the
 * administrative routes (master key only). Both accept POST alone.
 */
export function createSkillApiHandler(deps: Deps) {
  return async (event: HttpEvent): Promise<HttpResult> => {
    try {
      const path = matchSkillApiPath(event.rawPath);
      if (!path) throw new ApiError('NOT_FOUND', `No such resource: ${event.rawPath}`);
      if (event.requestContext.http.method.toUpperCase() !== 'POST') {
        throw new ApiError('METHOD_NOT_ALLOWED', `${event.rawPath} accepts POST`, { headers: { Allow: 'POST' } });
      }
      return await (path.kind === 'service' ? serviceCall(deps, event, path.skill, path.method) : adminCall(deps, event, path.route));
    } catch (error) {
      const result = failureOf(error, event.rawPath);
      if (error instanceof ApiError && error.details.headers) Object.assign(result.headers, error.details.headers);
      return result;
    }
  };
}
