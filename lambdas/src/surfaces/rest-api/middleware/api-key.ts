import { ApiError, DomainError } from '@service/shared';
import type { Deps } from '../../../infra/deps';
import type { StoredApiKey } from '../../../domains/access/api-keys';
import { admitApiKey, type RateLimitState } from '../../../domains/access/key-admission';
import { guardCredential } from '../../../domains/access/credential-failures';
import { getWorkspaceCached } from '../../../domains/access/workspace-cache';
import { PLANS, type Workspace } from '../../../domains/access/workspaces';
import { presentedCredential } from '../../../infra/http/credentials';
import type { HttpEvent } from '../../../infra/http/event';

/** The API key a request presents: in X-Service-Api-Key (primary) or as Authorization: Bearer (accepted). */
export const presentedApiKey = (event: HttpEvent): string | undefined => presentedCredential(event, 'x-service-api-key');

/** The RateLimit headers of a key's answer. */
export const rateLimitHeaders = (rate: RateLimitState): Record<string, string> => ({
  'RateLimit-Limit': String(rate.limit),
  'RateLimit-Remaining': String(rate.remaining),
  'RateLimit-Reset': String(rate.resetSeconds),
  'RateLimit-Policy': `${rate.limit};w=${rate.windowSeconds}`,
});

export interface AdmittedKey {
  key: StoredApiKey;
  workspace: Workspace;
  rate: RateLimitState;
}

/**
 * A request made with an API key, as every route that takes one admits it: the key checked under the progressive
 * delays for failed credentials (per source IP and key prefix), counted against its per-minute limit (429 with
 * Retry-After past it), its workspace on the partner plan (403 PLAN_REQUIRED otherwise).
 */
export async function admitKeyRequest(deps: Deps, secret: string, sourceIp: string): Promise<AdmittedKey> {
  const { key, rate } = await guardCredential(
    deps,
    { kind: 'api-key', sourceIp, presented: secret },
    () => admitApiKey(deps, secret, deps.config.rateLimitPerMinute),
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
  return { key, workspace, rate };
}
