import * as z from 'zod';
import type { SkillContext } from './context.js';
import { formatIssues } from './errors.js';
import { isLanguageTag } from './language.js';
import { localesSchema, normalizeLocales, readLocalesDir } from './locales.js';
import type { Locales, Messages } from './translate.js';
import { SKILL_NAME_PATTERN, capabilityOf, toolNameOf } from './naming.js';

export type InputShape = Record<string, z.ZodType>;
export type ToolInput<S extends InputShape> = z.output<z.ZodObject<S>>;

/** MCP tool annotations (hints for clients; MCP treats a tool as destructive unless told otherwise). */
export interface ToolAnnotations {
  title?: string;
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

export interface ToolDefinition<S extends InputShape = InputShape> {
  description: string;
  /** Field name -> schema built with `z`; validated before the handler runs. */
  input?: S;
  /** Returns a plain object: the tool's structured result. */
  handler: (input: ToolInput<NoInfer<S>>, ctx: SkillContext) => object | Promise<object>;
  /** Standalone fallback: roles that may call the tool when the platform gives no capability grant. */
  roles?: string[];
  annotations?: ToolAnnotations;
}

export type EventHandler = (data: unknown, ctx: SkillContext) => void | Promise<void>;

/** A tool without `input` takes no arguments. */
type ShapeOf<X> = X extends InputShape ? X : Record<never, never>;

export interface SkillDefinition<T extends Record<string, unknown>> {
  code: string;
  version: string;
  defaultLocale: string;
  locales?: Record<string, Messages>;
  /** Directory of `<language>.json` files; a path or a file URL such as `new URL('./locales', import.meta.url)`. */
  localesDir?: string | URL;
  tools: { [A in keyof T]: ToolDefinition<ShapeOf<T[A]>> };
  /** Inbound event type -> handler, reached through POST /events. */
  events?: Record<string, EventHandler>;
}

export interface SkillTool {
  /** Action name as written in the definition, e.g. `find_contact`. */
  readonly action: string;
  /** Model-facing MCP tool name `code__action`. */
  readonly name: string;
  /** Capability `code.action`, the unit of grants. */
  readonly capability: string;
  readonly description: string;
  readonly schema: z.ZodObject;
  readonly inputJsonSchema: Record<string, unknown>;
  readonly roles: readonly string[] | undefined;
  readonly annotations: ToolAnnotations | undefined;
  readonly handler: (input: unknown, ctx: SkillContext) => object | Promise<object>;
}

export interface Skill {
  readonly code: string;
  readonly version: string;
  readonly defaultLocale: string;
  readonly locales: Locales;
  /** Keyed by model-facing name `code__action`. */
  readonly tools: ReadonlyMap<string, SkillTool>;
  readonly events: Readonly<Record<string, EventHandler>>;
}

const name = (what: string) =>
  z
    .string()
    .regex(SKILL_NAME_PATTERN, `${what} must be lowercase letters, digits, _ or -, starting with a letter`)
    .refine((value) => !value.includes('__'), `${what} must not contain "__"`);
const isFunction = (value: unknown) => typeof value === 'function';

const definitionSchema = z
  .object({
    code: name('code'),
    version: z.string().min(1).max(64),
    defaultLocale: z.string().refine(isLanguageTag, 'must be a canonical language code such as en or pt-BR'),
    locales: localesSchema.optional(),
    localesDir: z.union([z.string().min(1), z.instanceof(URL)]).optional(),
    tools: z
      .record(
        name('action'),
        z.object({
          description: z.string().min(1).max(2048),
          input: z.record(z.string(), z.instanceof(z.ZodType, { message: 'must be a schema built with z' })).optional(),
          handler: z.custom<ToolDefinition['handler']>(isFunction, 'must be a function'),
          roles: z.array(z.string().min(1)).optional(),
          annotations: z
            .object({
              title: z.string().optional(),
              readOnlyHint: z.boolean().optional(),
              destructiveHint: z.boolean().optional(),
              idempotentHint: z.boolean().optional(),
              openWorldHint: z.boolean().optional(),
            })
            .strict()
            .optional(),
        }),
      )
      .refine((tools) => Object.keys(tools).length > 0, 'a skill needs at least one tool'),
    events: z.record(z.string().min(1), z.custom<EventHandler>(isFunction, 'must be a function')).optional(),
  })
  .refine((d) => !(d.locales && d.localesDir), { message: 'give locales or localesDir, not both', path: ['localesDir'] });

function toTool(code: string, action: string, tool: z.output<typeof definitionSchema>['tools'][string]): SkillTool {
  const schema = z.object(tool.input ?? {});
  // Input-side schema (defaults optional); types JSON Schema cannot express become unconstrained.
  const { $schema: _drop, ...inputJsonSchema } = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' });
  return Object.freeze({
    action,
    name: toolNameOf(code, action),
    capability: capabilityOf(code, action),
    description: tool.description,
    schema,
    inputJsonSchema,
    roles: tool.roles && Object.freeze([...tool.roles]),
    annotations: tool.annotations,
    handler: tool.handler as SkillTool['handler'],
  });
}

/** Declares a skill. Throws a clear error naming the field when the definition is wrong. */
export function defineSkill<T extends Record<string, unknown>>(definition: SkillDefinition<T>): Skill {
  const parsed = definitionSchema.safeParse(definition);
  if (!parsed.success) throw new Error(`Invalid skill definition: ${formatIssues(parsed.error)}`);
  const { code, version, defaultLocale, tools, events } = parsed.data;
  const locales = parsed.data.localesDir ? readLocalesDir(parsed.data.localesDir) : normalizeLocales(parsed.data.locales ?? {});
  if (Object.keys(locales).length > 0 && !locales[defaultLocale]) {
    throw new Error(`Invalid skill definition: defaultLocale "${defaultLocale}" has no messages`);
  }
  return Object.freeze({
    code,
    version,
    defaultLocale,
    locales,
    tools: new Map(Object.entries(tools).map(([action, tool]) => [toolNameOf(code, action), toTool(code, action, tool)])),
    events: Object.freeze({ ...events }),
  });
}

/** Finds a tool by model-facing name (`code__action`) or by action name. */
export function findTool(skill: Skill, toolName: string): SkillTool | undefined {
  return skill.tools.get(toolName) ?? skill.tools.get(toolNameOf(skill.code, toolName));
}
