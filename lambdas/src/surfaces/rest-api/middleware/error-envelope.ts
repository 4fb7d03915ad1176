import { ApiError } from '@service/shared';
import { failureResult } from '../../../infra/http/event';
import type { ApiRequest } from '../context';

/** Turns any failure into the envelope with its real status; an unexpected error is logged and becomes a 500 without details. */
export const errorEnvelope = () => ({
  onError: (request: ApiRequest) => {
    const error = request.error;
    if (error instanceof ApiError) {
      request.response = failureResult(error.status, error.code, error.message, error.details.field, error.details.headers);
      return;
    }
    console.error('unhandled error', { path: request.event.rawPath, error });
    request.response = failureResult(500, 'INTERNAL_ERROR', 'Something went wrong on our side; the request was not completed');
  },
});
