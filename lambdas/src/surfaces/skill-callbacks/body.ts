import { ApiError } from '@service/shared';
import type { z } from 'zod';
import { rawBody, rawBodyBytes, type HttpEvent } from '../../infra/http/event';
import { parseJsonBody } from '../../infra/http/json-body';

/** The JSON body, checked against `schema`; any problem is a VALIDATION_ERROR naming the field. */
export function parseBody<S extends z.ZodType>(event: HttpEvent, schema: S, maxBytes: number): z.output<S> {
  if (rawBodyBytes(event) > maxBytes) throw new ApiError('PAYLOAD_TOO_LARGE', `The body is limited to ${maxBytes} bytes`);
  const parsed = schema.safeParse(parseJsonBody(rawBody(event) || '{}'));
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = issue?.path.join('.') || undefined;
    throw new ApiError('VALIDATION_ERROR', `${field ? `${field}: ` : ''}${issue?.message ?? 'invalid body'}`, field ? { field } : {});
  }
  return parsed.data;
}
