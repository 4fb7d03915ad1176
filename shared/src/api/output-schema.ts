/**
 * The `schema` a caller of agents/command sends to shape `output`: a small JSON-Schema subset.
 * Validation reports the exact path of the first offending node, e.g. `schema.properties.items.items.type`.
 */
export const OUTPUT_SCHEMA_TYPES = ['string', 'number', 'integer', 'boolean', 'array', 'object'] as const;
export type OutputSchemaType = (typeof OUTPUT_SCHEMA_TYPES)[number];

export interface OutputSchema {
  type: OutputSchemaType;
  description?: string;
  enum?: (string | number | boolean)[];
  properties?: Record<string, OutputSchema>;
  items?: OutputSchema;
  required?: string[];
}

export const OUTPUT_SCHEMA_LIMITS = { maxProperties: 50, maxDepth: 5 } as const;
const ALLOWED_KEYS = new Set(['type', 'description', 'enum', 'properties', 'items', 'required']);

export type OutputSchemaCheck = { ok: true; schema: OutputSchema } | { ok: false; path: string; message: string };

class SchemaProblem extends Error {
  constructor(
    readonly path: string,
    message: string,
  ) {
    super(message);
  }
}

const isPlainObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

export function checkOutputSchema(input: unknown): OutputSchemaCheck {
  const counter = { properties: 0 };
  try {
    checkNode(input, 'schema', 1, counter);
    if ((input as OutputSchema).type !== 'object') throw new SchemaProblem('schema.type', 'the top level must be of type object');
    return { ok: true, schema: input as OutputSchema };
  } catch (error) {
    if (error instanceof SchemaProblem) return { ok: false, path: error.path, message: `${error.path}: ${error.message}` };
    throw error;
  }
}

function checkNode(node: unknown, path: string, depth: number, counter: { properties: number }): void {
  if (!isPlainObject(node)) throw new SchemaProblem(path, 'must be an object describing a type');
  for (const key of Object.keys(node)) {
    if (!ALLOWED_KEYS.has(key)) throw new SchemaProblem(`${path}.${key}`, `unsupported keyword; use only ${[...ALLOWED_KEYS].join(', ')}`);
  }
  const type = node.type;
  if (typeof type !== 'string' || !(OUTPUT_SCHEMA_TYPES as readonly string[]).includes(type)) {
    throw new SchemaProblem(`${path}.type`, `unsupported type ${JSON.stringify(type)}; supported: ${OUTPUT_SCHEMA_TYPES.join(', ')}`);
  }
  if (node.description !== undefined && typeof node.description !== 'string') throw new SchemaProblem(`${path}.description`, 'must be a string');
  if (node.enum !== undefined) checkEnum(node.enum, `${path}.enum`);
  if (node.properties !== undefined && type !== 'object') throw new SchemaProblem(`${path}.properties`, 'only type object has properties');
  if (node.items !== undefined && type !== 'array') throw new SchemaProblem(`${path}.items`, 'only type array has items');
  if (node.required !== undefined && type !== 'object') throw new SchemaProblem(`${path}.required`, 'only type object has required');

  if (type === 'object') checkObject(node, path, depth, counter);
  if (type === 'array') {
    if (node.items === undefined) throw new SchemaProblem(`${path}.items`, 'an array must describe its items');
    if (depth + 1 > OUTPUT_SCHEMA_LIMITS.maxDepth) throw new SchemaProblem(`${path}.items`, `nesting deeper than ${OUTPUT_SCHEMA_LIMITS.maxDepth} levels`);
    checkNode(node.items, `${path}.items`, depth + 1, counter);
  }
}

function checkObject(node: Record<string, unknown>, path: string, depth: number, counter: { properties: number }): void {
  const properties = node.properties ?? {};
  if (!isPlainObject(properties)) throw new SchemaProblem(`${path}.properties`, 'must be an object of property schemas');
  for (const [name, child] of Object.entries(properties)) {
    const childPath = `${path}.properties.${name}`;
    counter.properties += 1;
    if (counter.properties > OUTPUT_SCHEMA_LIMITS.maxProperties)
      throw new SchemaProblem(childPath, `more than ${OUTPUT_SCHEMA_LIMITS.maxProperties} properties in the schema`);
    if (depth + 1 > OUTPUT_SCHEMA_LIMITS.maxDepth) throw new SchemaProblem(childPath, `nesting deeper than ${OUTPUT_SCHEMA_LIMITS.maxDepth} levels`);
    checkNode(child, childPath, depth + 1, counter);
  }
  if (node.required !== undefined) {
    if (!Array.isArray(node.required)) throw new SchemaProblem(`${path}.required`, 'must be an array of property names');
    node.required.forEach((name, index) => {
      if (typeof name !== 'string' || !Object.hasOwn(properties, name))
        throw new SchemaProblem(`${path}.required.${index}`, `names no property of this object: ${JSON.stringify(name)}`);
    });
  }
}

function checkEnum(values: unknown, path: string): void {
  if (!Array.isArray(values) || values.length === 0) throw new SchemaProblem(path, 'must be a non-empty array');
  values.forEach((value, index) => {
    if (!['string', 'number', 'boolean'].includes(typeof value))
      throw new SchemaProblem(`${path}.${index}`, 'enum values must be strings, numbers or booleans');
  });
}
