import { OAuthRefusal, type OAuthErrorCode } from '@service/shared';
import { DomainError } from '@service/shared';
import { errorResult } from '../../infra/http/errors';
import { jsonResult, rawBody, header, type HttpEvent, type HttpResult } from '../../infra/http/event';

/** OAuth endpoints are called from browsers too (MCP Inspector): open CORS, no credentials. */
export const OPEN_CORS = { 'access-control-allow-origin': '*' };
const NO_STORE = { 'cache-control': 'no-store', pragma: 'no-cache' };

const STATUS: Partial<Record<OAuthErrorCode, number>> = { invalid_client: 401, invalid_token: 401, insufficient_scope: 403, temporarily_unavailable: 503 };

/** An OAuth answer (RFC 6749 §5.1/5.2): JSON, never cached. */
export const oauthJson = (status: number, body: unknown, headers: Record<string, string> = {}): HttpResult =>
  jsonResult(status, body, { ...NO_STORE, ...OPEN_CORS, ...headers });

/** `{error, error_description}` for an OAuth refusal; a rate limit as 429 with Retry-After; anything else through the kit. */
export function oauthError(error: unknown, event: HttpEvent): HttpResult {
  if (error instanceof OAuthRefusal) return oauthJson(STATUS[error.code] ?? 400, { error: error.code, error_description: error.message });
  if (error instanceof DomainError && error.code === 'RATE_LIMITED') {
    return oauthJson(
      429,
      { error: 'temporarily_unavailable', error_description: error.message },
      { 'retry-after': String(error.details.retryAfterSeconds ?? 60) },
    );
  }
  return errorResult(error, event.rawPath, OPEN_CORS);
}

/** The form parameters of a POST (application/x-www-form-urlencoded); a parameter sent twice is refused (RFC 6749 §3.1). */
export function formParams(event: HttpEvent): Record<string, string> {
  const type = header(event, 'content-type') ?? '';
  if (!/^application\/x-www-form-urlencoded\b/i.test(type))
    throw new OAuthRefusal('invalid_request', 'Send the parameters as application/x-www-form-urlencoded');
  const params: Record<string, string> = {};
  for (const [name, value] of new URLSearchParams(rawBody(event))) {
    if (name in params) throw new OAuthRefusal('invalid_request', `${name} was sent more than once`);
    params[name] = value;
  }
  return params;
}

export const preflight = (methods: string): HttpResult => ({
  statusCode: 204,
  headers: {
    ...OPEN_CORS,
    'access-control-allow-methods': methods,
    'access-control-allow-headers': 'Authorization, Content-Type, Mcp-Protocol-Version',
    'access-control-max-age': '600',
  },
});
