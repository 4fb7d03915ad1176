import { errorResult } from '../../../infra/http/errors';
import type { ApiRequest } from '../context';

/** Turns any failure into the envelope with its real status; an unexpected error is logged and becomes a 500 without details. */
export const errorEnvelope = () => ({
  onError: (request: ApiRequest) => {
    request.response = errorResult(
      request.error,
      request.event.rawPath,
      {},
      {
        requestId: request.context.awsRequestId,
        workspaceId: request.internal.api?.workspace?.id,
      },
    );
  },
});
