import fc from 'fast-check';

/** The part of OpenAPI 3.0's schema object the published document uses. */
export interface JsonSchema {
  $ref?: string;
  type?: 'string' | 'number' | 'integer' | 'boolean' | 'array' | 'object';
  format?: string;
  enum?: unknown[];
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  items?: JsonSchema;
  minItems?: number;
  maxItems?: number;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  nullable?: boolean;
}

export interface Hints {
  /** Components of the document, for `$ref`. */
  components: Record<string, JsonSchema>;
  /** Ids worth hitting besides random ones (the demo agent), so valid requests reach the store. */
  uuids: string[];
}

/** Every URL points where the outbound guard refuses at once: no fuzz run ever waits on the network. */
const REFUSED_URLS = ['https://127.0.0.1:9/hook', 'http://10.0.0.1/x', 'https://[::1]/mcp', 'https://169.254.169.254/latest'];
const DATES = { min: new Date('2020-01-01T00:00:00Z'), max: new Date('2035-12-31T00:00:00Z'), noInvalidDate: true };

function stringOf(schema: JsonSchema, hints: Hints): fc.Arbitrary<string> {
  if (schema.format === 'uuid' || schema.pattern?.includes('{8}-')) return fc.oneof(fc.uuid(), fc.constantFrom(...hints.uuids));
  if (schema.format === 'date-time') return fc.date(DATES).map((date) => date.toISOString());
  if (schema.format === 'date') return fc.date(DATES).map((date) => date.toISOString().slice(0, 10));
  if (schema.format === 'email') return fc.emailAddress();
  if (schema.format === 'uri') return fc.constantFrom(...REFUSED_URLS);
  const maxLength = Math.min(schema.maxLength ?? 40, 40);
  if (schema.pattern) return fc.stringMatching(new RegExp(schema.pattern, 'u')).filter((value) => value.length <= (schema.maxLength ?? Infinity));
  return fc.string({ minLength: schema.minLength ?? 0, maxLength: Math.max(maxLength, schema.minLength ?? 0) });
}

/** Values the schema describes (bounded in size), built from the published document alone. */
export function arbitraryOf(schema: JsonSchema, hints: Hints): fc.Arbitrary<unknown> {
  if (schema.$ref) return arbitraryOf(hints.components[schema.$ref.replace('#/components/schemas/', '')]!, hints);
  const value = ((): fc.Arbitrary<unknown> => {
    if (schema.enum) return fc.constantFrom(...schema.enum);
    switch (schema.type) {
      case 'string':
        return stringOf(schema, hints);
      case 'integer':
        return fc.integer({ min: schema.minimum ?? -1000, max: schema.maximum ?? 1000 });
      case 'number':
        return fc.double({ noNaN: true, noDefaultInfinity: true });
      case 'boolean':
        return fc.boolean();
      case 'array':
        return fc.array(arbitraryOf(schema.items ?? {}, hints), { minLength: schema.minItems ?? 0, maxLength: Math.min(schema.maxItems ?? 3, 3) });
      case 'object':
        if (!schema.properties) return fc.dictionary(fc.string({ maxLength: 12 }), fc.jsonValue({ maxDepth: 3 }), { maxKeys: 4 });
        return fc.record(Object.fromEntries(Object.entries(schema.properties).map(([key, child]) => [key, arbitraryOf(child, hints)])), {
          requiredKeys: schema.required ?? [],
        });
      default:
        return fc.jsonValue({ maxDepth: 3 });
    }
  })();
  return schema.nullable ? fc.option(value) : value;
}

/** Sets `key` as an own property, even `__proto__` (an assignment would change the prototype instead). */
const withOwn = (target: Record<string, unknown>, key: string, value: unknown) =>
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });

const PROTOTYPE_KEYS = ['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty'];

/** A valid value turned hostile: prototype keys, deep nesting, huge strings, wrong types, or any JSON at all. */
export function hostile(valid: fc.Arbitrary<unknown>): fc.Arbitrary<unknown> {
  const objectOf = (value: unknown) => (typeof value === 'object' && value !== null && !Array.isArray(value) ? { ...(value as Record<string, unknown>) } : {});
  const pick = (value: Record<string, unknown>, index: number) => Object.keys(value)[index % Math.max(1, Object.keys(value).length)] ?? 'field';
  return fc.oneof(
    { arbitrary: valid, weight: 3 },
    fc.tuple(valid, fc.constantFrom(...PROTOTYPE_KEYS), fc.jsonValue({ maxDepth: 2 }), fc.nat()).map(([value, key, junk, index]) => {
      const object = objectOf(value);
      const field = object[pick(object, index)];
      if (typeof field === 'object' && field !== null && !Array.isArray(field)) withOwn(field as Record<string, unknown>, key, junk);
      return withOwn(object, key, junk);
    }),
    fc.tuple(valid, fc.integer({ min: 17, max: 3000 }), fc.nat()).map(([value, depth, index]) => {
      const object = objectOf(value);
      let deep: unknown = 1;
      for (let level = 0; level < depth; level += 1) deep = [deep];
      return withOwn(object, pick(object, index), deep);
    }),
    fc.tuple(valid, fc.constantFrom(300, 20_000, 150_000), fc.nat()).map(([value, length, index]) => {
      const object = objectOf(value);
      return withOwn(object, pick(object, index), 'x'.repeat(length));
    }),
    fc.tuple(valid, fc.oneof(fc.jsonValue({ maxDepth: 2 }), fc.constant(null)), fc.nat()).map(([value, junk, index]) => {
      const object = objectOf(value);
      return withOwn(object, pick(object, index), junk);
    }),
    fc.jsonValue({ maxDepth: 4 }),
  );
}
