import { ApiError } from '@service/shared';
import type { z } from 'zod';
import { header, rawBody, rawBodyBytes, type HttpEvent } from './event';

/**
 * No request body may nest deeper than this (DynamoDB stores at most 32 levels; recursive code downstream must
 * never meet hostile depth). Checked on the text before JSON.parse, in one pass without recursion.
 */
export const MAX_BODY_DEPTH = 32;

function nestingDepth(text: string): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let index = 0; index < text.length; index += 1) {
    const char = text[index];
    if (inString) {
      if (char === '\\') index += 1;
      else if (char === '"') inString = false;
    } else if (char === '"') inString = true;
    else if (char === '{' || char === '[') deepest = Math.max(deepest, ++depth);
    else if (char === '}' || char === ']') depth -= 1;
  }
  return deepest;
}

/** The body as JSON, or VALIDATION_ERROR on field `body` when it is not JSON or nests too deep. */
export function parseJsonText(text: string): unknown {
  if (nestingDepth(text) > MAX_BODY_DEPTH) throw new ApiError('VALIDATION_ERROR', `The body nests deeper than ${MAX_BODY_DEPTH} levels`, { field: 'body' });
  try {
    return JSON.parse(text);
  } catch {
    throw new ApiError('VALIDATION_ERROR', 'The body is not valid JSON', { field: 'body' });
  }
}

/** The first problem of a zod failure, as `field: message` with the field's dotted path (`body` for the whole body). */
export function firstIssue(error: z.ZodError): { field: string; message: string } {
  const issue = error.issues[0]!;
  const field = issue.path.map(String).join('.') || 'body';
  return { field, message: `${field}: ${issue.message}` };
}

/** `value` checked against `schema`, or VALIDATION_ERROR naming the first field at fault. */
export function validated<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const { field, message } = firstIssue(parsed.error);
  throw new ApiError('VALIDATION_ERROR', message, { field });
}

export interface JsonBodyOptions {
  maxBytes: number;
  /** What an empty body stands for; without it, an empty body is a VALIDATION_ERROR. */
  whenEmpty?: unknown;
}

/**
 * The request's JSON body: PAYLOAD_TOO_LARGE past the size cap, UNSUPPORTED_MEDIA_TYPE for a body declared as
 * something else than JSON, VALIDATION_ERROR (field `body`) when it is missing, not JSON or nests too deep.
 */
export function readJsonBody(event: HttpEvent, { maxBytes, whenEmpty }: JsonBodyOptions): unknown {
  const size = rawBodyBytes(event);
  if (size > maxBytes) throw new ApiError('PAYLOAD_TOO_LARGE', `The body is ${size} bytes; the limit is ${maxBytes} bytes`);
  const contentType = header(event, 'content-type');
  if (contentType && !/^application\/(.+\+)?json\b/i.test(contentType)) {
    throw new ApiError('UNSUPPORTED_MEDIA_TYPE', `Send the body as application/json, not ${contentType}`);
  }
  const text = rawBody(event);
  if (text.trim() !== '') return parseJsonText(text);
  if (whenEmpty !== undefined) return whenEmpty;
  throw new ApiError('VALIDATION_ERROR', 'The request needs a JSON body', { field: 'body' });
}

/** The request's JSON body checked against `schema` (readJsonBody, then validated). */
export const parseJsonBody = <S extends z.ZodType>(event: HttpEvent, schema: S, options: JsonBodyOptions): z.output<S> =>
  validated(schema, readJsonBody(event, options));
