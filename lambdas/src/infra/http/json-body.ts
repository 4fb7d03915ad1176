import { ApiError } from '@service/shared';

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
export function parseJsonBody(text: string): unknown {
  if (nestingDepth(text) > MAX_BODY_DEPTH) throw new ApiError('VALIDATION_ERROR', `The body nests deeper than ${MAX_BODY_DEPTH} levels`, { field: 'body' });
  try {
    return JSON.parse(text);
  } catch {
    throw new ApiError('VALIDATION_ERROR', 'The body is not valid JSON', { field: 'body' });
  }
}
