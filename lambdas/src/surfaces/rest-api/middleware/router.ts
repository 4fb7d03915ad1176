import { ApiError, ENDPOINTS, SUPPORTED_LANGUAGES, type EndpointName } from '@service/shared';
import { methodNotAllowed } from '../../../infra/http/errors';
import type { ApiRequest } from '../context';

/** `/{lang}/api/v1/<resource>/<action>/` (or `<resource>/<group>/<action>`, e.g. auth/email/start) with the trailing slash optional. */
const API_PATH = /^\/([a-z]{2})\/api\/v1\/([a-z_]+(?:\/[a-z_]+){1,2})\/?$/;

const byPath = new Map<string, EndpointName[]>();
for (const [name, endpoint] of Object.entries(ENDPOINTS) as [EndpointName, (typeof ENDPOINTS)[EndpointName]][]) {
  byPath.set(endpoint.path, [...(byPath.get(endpoint.path) ?? []), name]);
}

export function matchApiPath(rawPath: string): { lang: string; path: string } | undefined {
  const match = API_PATH.exec(rawPath);
  if (!match || !(SUPPORTED_LANGUAGES as readonly string[]).includes(match[1]!)) return undefined;
  return { lang: match[1]!, path: match[2]! };
}

/** Finds the endpoint of a request: 404 NOT_FOUND for an unknown path, 405 METHOD_NOT_ALLOWED (with Allow) for a known path. */
export const router = () => ({
  before: (request: ApiRequest) => {
    const { rawPath } = request.event;
    const method = request.event.requestContext.http.method.toUpperCase();
    const matched = matchApiPath(rawPath);
    const names = matched ? byPath.get(matched.path) : undefined;
    if (!matched || !names) throw new ApiError('NOT_FOUND', `No such resource: ${rawPath}`);
    const name = names.find((candidate) => ENDPOINTS[candidate].method === method);
    if (!name) {
      const allowed = names.map((candidate) => ENDPOINTS[candidate].method);
      throw methodNotAllowed(`${method} is not allowed on ${matched.path}; use ${allowed.join(', ')}`, allowed);
    }
    request.internal.api = { lang: matched.lang, endpointName: name, endpoint: ENDPOINTS[name] };
  },
});
