import type { OutputSchema } from '@service/shared';
import { z } from 'zod';

/**
 * The name a property travels under between us and the model. Validators and the AI SDK's JSON parser look names
 * up on plain objects (a missing `constructor` reads as Object's; a `__proto__` key is refused), so a name that
 * Object.prototype also holds gets one more trailing underscore: `constructor` → `constructor_`, `constructor_` →
 * `constructor__`, reversible, and every other name is untouched.
 */
export function modelKey(name: string): string {
  for (let stem = name; ; stem = stem.slice(0, -1)) {
    if (Object.hasOwn(Object.prototype, stem)) return `${name}_`;
    if (!stem.endsWith('_')) return name;
  }
}

/**
 * Turns the caller's `schema` into the zod schema the model's structured answer is checked against, under the
 * model's property names. Descriptions travel with it (the model reads them); a property not in `required` may be null.
 */
export function zodFromOutputSchema(schema: OutputSchema): z.ZodType {
  const described = <T extends z.ZodType>(type: T): T => (schema.description ? type.describe(schema.description) : type);
  if (schema.enum) {
    const literals = schema.enum.map((value) => z.literal(value));
    return described(literals.length === 1 ? literals[0]! : z.union(literals as unknown as [z.ZodLiteral, z.ZodLiteral, ...z.ZodLiteral[]]));
  }
  switch (schema.type) {
    case 'string':
      return described(z.string());
    case 'number':
      return described(z.number());
    case 'integer':
      return described(z.number().int());
    case 'boolean':
      return described(z.boolean());
    case 'array':
      return described(z.array(zodFromOutputSchema(schema.items!)));
    case 'object': {
      const required = new Set(schema.required ?? []);
      const shape = Object.fromEntries(
        Object.entries(schema.properties ?? {}).map(([name, child]) => {
          const type = zodFromOutputSchema(child);
          return [modelKey(name), required.has(name) ? type : type.nullable().optional()];
        }),
      );
      return described(z.object(shape));
    }
  }
}

/** The model's answer under the caller's names: every property of every object present, null where the run did not produce it. */
export function withNullsFilled(schema: OutputSchema, value: unknown): unknown {
  if (schema.type === 'object' && value && typeof value === 'object' && !Array.isArray(value)) {
    const record = value as Record<string, unknown>;
    return Object.fromEntries(
      Object.entries(schema.properties ?? {}).map(([name, child]) => {
        const produced = Object.hasOwn(record, modelKey(name)) ? record[modelKey(name)] : undefined;
        return [name, produced == null ? null : withNullsFilled(child, produced)];
      }),
    );
  }
  if (schema.type === 'array' && Array.isArray(value) && schema.items) return value.map((item) => withNullsFilled(schema.items!, item));
  return value;
}

export const RESULT_VALUES = ['ok', 'partial', 'needs_input', 'refused', 'failed'] as const;

/** What the model is asked for when no schema is given; actions and files are never the model's say-so. */
export const ENVELOPE_FROM_MODEL = z.object({
  result: z.enum(RESULT_VALUES).describe('Outcome of the instruction'),
  summary: z.string().describe('One sentence, in the language of the instruction, saying what was done'),
  follow_up: z.string().nullable().describe('What you still need from the caller, or null'),
});
