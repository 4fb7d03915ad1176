import * as z from 'zod';

/**
 * Caller-supplied JSON (agents/command `data` and `schema`) is data, never code: any key is accepted, including
 * `constructor`, `__proto__` and `prototype`, and the value is kept exactly as JSON.parse made it (own properties).
 * DynamoDB stores at most 32 levels, so the documented bounds keep every accepted value storable.
 */
export const JSON_INPUT_LIMITS = { maxDepth: 16, maxKeyLength: 256 } as const;

type Problem = { path: (string | number)[]; message: string };

/** Walks without recursion, so a hostile nesting depth cannot overflow the stack. */
export function jsonInputProblem(value: unknown, limits: { maxDepth: number; maxKeyLength: number } = JSON_INPUT_LIMITS): Problem | undefined {
  const pending: { node: unknown; path: (string | number)[] }[] = [{ node: value, path: [] }];
  while (pending.length > 0) {
    const { node, path } = pending.pop()!;
    if (typeof node !== 'object' || node === null) continue;
    if (path.length >= limits.maxDepth) return { path, message: `nested deeper than ${limits.maxDepth} levels` };
    const entries: [string | number, unknown][] = Array.isArray(node) ? node.map((item, index) => [index, item]) : Object.entries(node);
    for (const [key, child] of entries) {
      if (typeof key === 'string' && key.length > limits.maxKeyLength) return { path, message: `has a key longer than ${limits.maxKeyLength} characters` };
      pending.push({ node: child, path: [...path, key] });
    }
  }
  return undefined;
}

const isJsonObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** A JSON object of any keys, bounded in depth and key length; published as an object with any properties. */
export const jsonObject = () =>
  z
    .custom<Record<string, unknown>>(isJsonObject, { error: 'must be a JSON object' })
    .superRefine((value, context) => {
      const problem = jsonInputProblem(value);
      if (problem) context.addIssue({ code: 'custom', path: problem.path, message: problem.message });
    })
    .meta({ type: 'object', additionalProperties: true });
