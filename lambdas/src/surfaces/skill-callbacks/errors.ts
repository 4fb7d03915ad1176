import { ApiError } from '@service/shared';
import { failureResult, type HttpResult } from '../../infra/http/event';

/** The envelope of a failed skill-facing call: the API's own, so `serviceApi` reads `error.code` like any other. */
export function failureOf(error: unknown, path: string): HttpResult {
  if (error instanceof ApiError) return failureResult(error.status, error.code, error.message, error.details.field, error.details.headers);
  console.error('skill api error', { path, error });
  return failureResult(500, 'INTERNAL_ERROR', 'Something went wrong on our side; the request was not completed');
}
