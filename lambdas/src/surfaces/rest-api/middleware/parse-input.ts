import { ApiError } from '@service/shared';
import type { z } from 'zod';
import { header, rawBody, rawBodyBytes } from '../../../infra/http/event';
import { parseJsonBody } from '../../../infra/http/json-body';
import { apiState, type ApiRequest } from '../context';

/** The first problem of a zod failure, as `field: message` with the field's dotted path. */
export function firstIssue(error: z.ZodError, prefix = ''): { field: string; message: string } {
  const issue = error.issues[0]!;
  const field = [prefix, ...issue.path.map(String)].filter(Boolean).join('.') || 'body';
  return { field, message: `${field}: ${issue.message}` };
}

function parseJson(request: ApiRequest, maxBodyBytes: number): unknown {
  const size = rawBodyBytes(request.event);
  if (size > maxBodyBytes) throw new ApiError('PAYLOAD_TOO_LARGE', `The body is ${size} bytes; the limit is ${maxBodyBytes} bytes`);
  const contentType = header(request.event, 'content-type');
  if (contentType && !/^application\/(.+\+)?json\b/i.test(contentType)) {
    throw new ApiError('UNSUPPORTED_MEDIA_TYPE', `Send the body as application/json, not ${contentType}`);
  }
  const text = rawBody(request.event);
  if (text.trim() === '') throw new ApiError('VALIDATION_ERROR', 'The request needs a JSON body', { field: 'body' });
  return parseJsonBody(text);
}

/** Parses the JSON body (size and media type checked first) and validates body and query against the endpoint's schemas. */
export const parseInput = (maxBodyBytes: number) => ({
  before: (request: ApiRequest) => {
    const state = apiState(request);
    const { endpoint } = state;
    if (endpoint.query) {
      const parsed = endpoint.query.safeParse(request.event.queryStringParameters ?? {});
      if (!parsed.success) {
        const { field, message } = firstIssue(parsed.error);
        throw new ApiError('VALIDATION_ERROR', message, { field });
      }
      state.query = parsed.data;
    }
    if (endpoint.body) {
      const parsed = endpoint.body.safeParse(parseJson(request, maxBodyBytes));
      if (!parsed.success) {
        const { field, message } = firstIssue(parsed.error);
        throw new ApiError('VALIDATION_ERROR', message, { field });
      }
      state.body = parsed.data;
    }
  },
});
