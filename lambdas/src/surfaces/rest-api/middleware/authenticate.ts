import { ApiError, DomainError } from '@service/shared';
import type { Deps } from '../../../infra/deps';
import { authenticateAndMeter, type RateLimitState } from '../../../domains/access/api-keys';
import { guardCredential } from '../../../domains/access/credential-failures';
import { getWorkspaceCached } from '../../../domains/access/workspace-cache';
import { PLANS } from '../../../domains/access/workspaces';
import { presentedCredential } from '../../../infra/http/credentials';
import { apiState, type ApiRequest } from '../context';

const rateLimitHeaders = (rate: RateLimitState): Record<string, string> => ({
  'RateLimit-Limit': String(rate.limit),
  'RateLimit-Remaining': String(rate.remaining),
  'RateLimit-Reset': String(rate.resetSeconds),
  'RateLimit-Policy': `${rate.limit};w=${rate.windowSeconds}`,
});

/** API key (under progressive delays for failures), per-key rate limit and plan gate; adds the RateLimit headers to every authenticated answer. */
export const authenticate = (deps: Deps) => ({
  before: async (request: ApiRequest) => {
    const state = apiState(request);
    // The key travels in X-Service-Api-Key (primary) or Authorization: Bearer (accepted).
    const secret = presentedCredential(request.event, 'x-service-api-key');
    if (!secret) throw new ApiError('API_KEY_REQUIRED', 'Send your API key in the X-Service-Api-Key header');
    const { key, rate } = await guardCredential(
      deps,
      { kind: 'api-key', sourceIp: request.event.requestContext.http.sourceIp, presented: secret },
      () => authenticateAndMeter(deps, secret, deps.config.rateLimitPerMinute),
      (error) => error instanceof DomainError && error.code === 'API_KEY_INVALID',
    );
    if (rate.exceeded) {
      throw new ApiError('RATE_LIMITED', `Rate limit of ${rate.limit} requests per minute exceeded; retry after ${rate.resetSeconds} s`, {
        headers: { 'Retry-After': String(rate.resetSeconds), ...rateLimitHeaders(rate) },
      });
    }
    const workspace = await getWorkspaceCached(deps, key.workspaceId);
    if (!workspace) throw new ApiError('API_KEY_INVALID', 'The API key belongs to no workspace');
    if (!PLANS[workspace.plan].apiAccess) throw new ApiError('PLAN_REQUIRED', 'The API is available on the partner plan; upgrade the workspace to use it');
    Object.assign(state, { apiKey: key, workspace, rate });
  },
  after: (request: ApiRequest) => {
    const rate = request.internal.api?.rate;
    if (rate && request.response) Object.assign(request.response.headers, rateLimitHeaders(rate));
  },
});
