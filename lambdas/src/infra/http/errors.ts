import { ApiError, DomainError } from '@service/shared';
import { failureResult, type HttpEvent, type HttpResult } from './event';

/** A domain error as the API's: the code keeps its documented status; a wait becomes Retry-After. */
function fromDomainError({ code, message, details }: DomainError): ApiError {
  const headers = details.retryAfterSeconds === undefined ? undefined : { 'Retry-After': String(details.retryAfterSeconds) };
  return new ApiError(code, message, { ...(details.field === undefined ? {} : { field: details.field }), ...(headers ? { headers } : {}) });
}

/** A failure the caller caused (an API or domain error), as opposed to a fault of ours. */
export const isRefusal = (error: unknown): error is ApiError | DomainError => error instanceof ApiError || error instanceof DomainError;

/**
 * Any failure as the error envelope with its documented code and real status (plus the error's own headers, such as
 * Allow or Retry-After); anything unexpected is logged and answers 500 INTERNAL_ERROR without details.
 */
export function errorResult(error: unknown, path: string, headers: Record<string, string> = {}): HttpResult {
  if (error instanceof DomainError) error = fromDomainError(error);
  if (error instanceof ApiError) return failureResult(error.status, error.code, error.message, error.details.field, { ...headers, ...error.details.headers });
  console.error('unhandled error', { path, error });
  return failureResult(500, 'INTERNAL_ERROR', 'Something went wrong on our side; the request was not completed', undefined, headers);
}

/** 405 METHOD_NOT_ALLOWED, naming the methods the route accepts in `Allow`. */
export const methodNotAllowed = (message: string, allowed: readonly string[]): ApiError =>
  new ApiError('METHOD_NOT_ALLOWED', message, { headers: { Allow: allowed.join(', ') } });

/** Throws 405 (with Allow) unless the request's method is one of `allowed`. */
export function requireMethod(event: HttpEvent, allowed: readonly string[]): void {
  if (!allowed.includes(event.requestContext.http.method.toUpperCase())) throw methodNotAllowed(`${event.rawPath} accepts ${allowed.join(', ')}`, allowed);
}

/** A buffered handler whose every failure answers as the error envelope. */
export const enveloped =
  (handle: (event: HttpEvent) => Promise<HttpResult>) =>
  async (event: HttpEvent): Promise<HttpResult> => {
    try {
      return await handle(event);
    } catch (error) {
      return errorResult(error, event.rawPath);
    }
  };
