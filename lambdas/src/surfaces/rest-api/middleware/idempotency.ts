import { ApiError } from '@service/shared';
import type { Deps } from '../../../infra/deps';
import {
  IDEMPOTENCY_KEY_MAX_LENGTH,
  claimIdempotencyKey,
  completeIdempotencyKey,
  releaseIdempotencyKey,
  requestFingerprint,
  unlockIdempotencyKey,
} from '../../../infra/store/idempotency';
import { isRefusal } from '../../../infra/http/errors';
import { header } from '../../../infra/http/event';
import { apiState, type ApiRequest } from '../context';

const REPLAY_HEADER = 'Idempotent-Replayed';

/** The copy kept for replays: each secret shown once is stored as null, with `secret_already_shown: true`. */
function replayableBody(body: string, secretFields: readonly string[] = []): string {
  const envelope = JSON.parse(body) as { data?: Record<string, unknown> };
  const data = envelope.data;
  const shown = secretFields.filter((field) => data && Object.hasOwn(data, field));
  if (shown.length === 0) return body;
  return JSON.stringify({ ...envelope, data: { ...data, ...Object.fromEntries(shown.map((field) => [field, null])), secret_already_shown: true } });
}

/**
 * Idempotency-Key on create endpoints and agents/command: the first request claims the key, its response is stored
 * (status and body, never a secret), an identical repeat replays it with `Idempotent-Replayed: true`, another
 * payload is 409. A refused attempt (an API error) releases the key; an unexpected failure only unlocks it, so the
 * retry resumes the same action (see infra/store/idempotency.ts).
 */
export const idempotency = (deps: Deps) => ({
  before: async (request: ApiRequest) => {
    const state = apiState(request);
    const key = header(request.event, 'idempotency-key');
    if (key === undefined || !state.endpoint.idempotent) return undefined;
    if (key.length === 0 || key.length > IDEMPOTENCY_KEY_MAX_LENGTH) {
      throw new ApiError('VALIDATION_ERROR', `Idempotency-Key must be 1 to ${IDEMPOTENCY_KEY_MAX_LENGTH} characters`, { field: 'Idempotency-Key' });
    }
    const fingerprint = requestFingerprint(state.endpoint.method, state.endpoint.path, state.body);
    const claim = await claimIdempotencyKey(deps, state.workspace!.id, key, fingerprint);
    if (claim.kind === 'replay') {
      return { ...claim.response, headers: { ...claim.response.headers, [REPLAY_HEADER]: 'true' } };
    }
    request.internal.claim = claim;
    state.action = claim.action;
    return undefined;
  },
  after: async (request: ApiRequest) => {
    const { claim } = request.internal;
    if (!claim || !request.response) return;
    const { statusCode = 200, body = '', headers } = request.response;
    const stored = replayableBody(body, apiState(request).endpoint.secretFields);
    await completeIdempotencyKey(deps, claim, { statusCode, body: stored, headers: { 'content-type': headers['content-type'] ?? 'application/json' } });
    request.response.headers[REPLAY_HEADER] = 'false';
  },
  onError: async (request: ApiRequest) => {
    const { claim } = request.internal;
    if (!claim) return;
    await (isRefusal(request.error) ? releaseIdempotencyKey(deps, claim) : unlockIdempotencyKey(deps, claim));
  },
});
