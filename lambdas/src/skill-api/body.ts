import { ApiError } from '@service/shared';
import type { z } from 'zod';
import { rawBody, rawBodyBytes, type HttpEvent } from '../http/event';

/** The JSON body, checked against `schema`; any problem is a VALIDATION_ERROR naming the field. */
export function parseBody<S extends z.ZodType>(event: HttpEvent, schema: S, maxBytes: number): z.output<S> {
  if (rawBodyBytes(event) > maxBytes) throw new ApiError('PAYLOAD_TOO_LARGE', `The body is limited to ${maxBytes} bytes`);
  let json: unknown;
  try {
    json = JSON.parse(rawBody(event) || '{}');
  } catch {
    throw new ApiError('VALIDATION_ERROR', 'The body must be JSON');
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = issue?.path.join('.') || undefined;
    throw new ApiError('VALIDATION_ERROR', `${field ? `${field}: ` : ''}${issue?.message ?? 'invalid body'}`, field ? { field } : {});
  }
  return parsed.data;
}
