import * as z from 'zod';
import type { Skill } from './define-skill.js';
import type { ToolLimits } from './run-tool.js';
import { SDK_NAME, SDK_VERSION } from './version.js';

/**
 * GET /manifest: the contract a skill declares. The platform parses it with this schema when a skill is
 * registered; any service (in any language) serving this shape and POST /mcp is a valid skill, so fields
 * that only our SDK fills are optional.
 */
export const manifestSchema = z.object({
  manifestVersion: z.literal(1),
  sdk: z.object({ name: z.string(), version: z.string() }).optional(),
  code: z.string().regex(/^[a-z][a-z0-9_-]*$/),
  version: z.string().min(1),
  defaultLocale: z.string().min(2),
  locales: z.array(z.string()).default([]),
  tools: z.array(
    z.object({
      /** Model-facing MCP tool name `code__action`. */
      name: z.string().min(1),
      action: z.string().min(1),
      /** Unit of grants: `code.action`. */
      capability: z.string().min(1),
      description: z.string(),
      /** JSON Schema of the tool's input, as in MCP tools/list. */
      inputSchema: z.record(z.string(), z.unknown()),
      /** Standalone fallback roles; absent when the tool relies on platform grants only. */
      roles: z.array(z.string()).optional(),
      annotations: z.record(z.string(), z.unknown()).optional(),
    }),
  ),
  /** Event types POST /events handles. */
  events: z.array(z.string()).default([]),
  endpoints: z
    .object({ mcp: z.string(), events: z.string(), test: z.string(), health: z.string() })
    .default({ mcp: '/mcp', events: '/events', test: '/test', health: '/health' }),
  limits: z.object({ toolTimeoutMs: z.number(), maxResponseBytes: z.number() }).optional(),
});
export type SkillManifest = z.infer<typeof manifestSchema>;

export function buildManifest(skill: Skill, limits: ToolLimits): SkillManifest {
  return {
    manifestVersion: 1,
    sdk: { name: SDK_NAME, version: SDK_VERSION },
    code: skill.code,
    version: skill.version,
    defaultLocale: skill.defaultLocale,
    locales: Object.keys(skill.locales),
    tools: [...skill.tools.values()].map((tool) => ({
      name: tool.name,
      action: tool.action,
      capability: tool.capability,
      description: tool.description,
      inputSchema: tool.inputJsonSchema,
      ...(tool.roles && { roles: [...tool.roles] }),
      ...(tool.annotations && { annotations: { ...tool.annotations } }),
    })),
    events: Object.keys(skill.events),
    endpoints: { mcp: '/mcp', events: '/events', test: '/test', health: '/health' },
    limits: { toolTimeoutMs: limits.timeoutMs, maxResponseBytes: limits.maxResponseBytes },
  };
}
