import { DomainError, randomBase62 } from '@service/shared';
import { isSkillName, manifestSchema, type SkillManifest } from '@service/skill-sdk';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import * as z from 'zod';
import type { Deps } from '../../infra/deps';
import { checkOutboundUrl, OutboundBlockedError, type OutboundPolicy } from '../../infra/net/outbound-guard';
import { listSkillTools, SKILL_TIMEOUT_MS, type SkillTarget } from './skill-client';
import { skillFetch } from './skill-fetch';
import { isBuiltinSkill } from './builtin';
import { toolOf, type CatalogTool } from './catalog-tool';
import { getSkillItem, putSkillItem, querySkillItems } from './repository';

/** A Path B skill: any standards-compliant MCP server a workspace registered by URL. */
export interface RegisteredSkill {
  code: string;
  name: string;
  description: string;
  version: string;
  /** The URL as registered, and the MCP endpoint the platform calls. */
  url: string;
  mcpUrl: string;
  /** The skill's own bearer, sent on every MCP request to it. */
  bearer?: string;
  /** This skill's own turn-token key (HMAC: whoever verifies can mint, so no two skills share one). */
  turnTokenSecret: string;
  oauthProvider?: string;
  tools: CatalogTool[];
  /** Where the skill takes inbound events (its manifest's endpoints.events), and the event types it declares. */
  eventsUrl?: string;
  events?: string[];
  createdAt: string;
}

export interface RegisterInput {
  url: string;
  code?: string;
  name?: string;
  bearer?: string;
  /** The key the skill already runs with; generated when absent. */
  turn_token_secret?: string;
}

/** What a manifest may add beyond the SDK's shape: the OAuth connection the skill needs. */
const manifestExtras = z.object({
  name: z.string().optional(),
  description: z.string().optional(),
  oauth: z.object({ provider: z.string().min(1) }).optional(),
});

export const listRegisteredSkills = (deps: Deps, workspaceId: string) => querySkillItems<RegisteredSkill>(deps, workspaceId, 'registered');
export const findRegisteredSkill = (deps: Deps, workspaceId: string, code: string) => getSkillItem<RegisteredSkill>(deps, workspaceId, `registered#${code}`);

/** `https://host/mcp` and `https://host` both name a skill whose manifest is at `https://host/manifest`. */
function baseOf(url: URL): URL {
  const base = new URL(url);
  base.pathname = base.pathname.replace(/\/mcp\/?$/, '').replace(/\/?$/, '/');
  base.search = '';
  return base;
}

/** GET /manifest when the server has one; any failure means "no manifest" and the MCP listing decides alone. */
async function readManifest(base: URL, guard: OutboundPolicy): Promise<{ manifest: SkillManifest; extras: z.infer<typeof manifestExtras> } | undefined> {
  try {
    const response = await skillFetch(guard)(new URL('manifest', base), {
      headers: { accept: 'application/json' },
      signal: AbortSignal.timeout(SKILL_TIMEOUT_MS),
    });
    if (!response.ok) return void (await response.body?.cancel());
    const json: unknown = await response.json();
    const manifest = manifestSchema.safeParse(json);
    return manifest.success ? { manifest: manifest.data, extras: manifestExtras.catch({}).parse(json) } : undefined;
  } catch (error) {
    if (error instanceof OutboundBlockedError) throw error;
    return undefined;
  }
}

/** A tool name on the server becomes the action: `code__x` drops its prefix; other characters become `_`. */
function actionOf(code: string, toolName: string): string {
  const bare = toolName.startsWith(`${code}__`) ? toolName.slice(code.length + 2) : toolName;
  return (
    bare
      .toLowerCase()
      .replace(/[^a-z0-9_-]+/g, '_')
      .replace(/_{2,}/g, '_')
      .replace(/^[^a-z]+/, '') || 'tool'
  );
}

function catalogTools(code: string, listed: Tool[], manifest: SkillManifest | undefined): CatalogTool[] {
  const seen = new Set<string>();
  return listed.flatMap((tool) => {
    const declared = manifest?.tools.find((entry) => entry.name === tool.name);
    const action = declared?.action ?? actionOf(code, tool.name);
    if (seen.has(action)) return [];
    seen.add(action);
    return [toolOf(code, action, tool.name, tool.description ?? declared?.description ?? '', declared?.roles)];
  });
}

const unreachable = (url: string, error: unknown) =>
  new DomainError(
    'VALIDATION_ERROR',
    error instanceof OutboundBlockedError
      ? error.message
      : `The MCP server at ${url} could not be read: ${error instanceof Error ? error.message : String(error)}`,
    { field: 'url' },
  );

/**
 * Registers (or refreshes) a Path B skill: reads GET /manifest if the server has one, lists its tools over MCP
 * (initialize + tools/list), and stores the skill with its turn-token key (given, or fresh). Every request goes through the guard.
 */
export async function registerSkill(deps: Deps, workspaceId: string, input: RegisterInput, guard: OutboundPolicy): Promise<RegisteredSkill> {
  let given: URL;
  try {
    given = checkOutboundUrl(input.url, guard);
  } catch (error) {
    throw unreachable(input.url, error);
  }
  let read: Awaited<ReturnType<typeof readManifest>>;
  let listing: Awaited<ReturnType<typeof listSkillTools>>;
  try {
    read = await readManifest(baseOf(given), guard);
    const mcpUrl = read ? new URL(read.manifest.endpoints.mcp.replace(/^\//, ''), baseOf(given)).href : given.href;
    const target: SkillTarget = { mcpUrl, guard, ...(input.bearer ? { bearer: input.bearer } : {}) };
    listing = await listSkillTools(target, 'en');
    given = new URL(mcpUrl);
  } catch (error) {
    throw unreachable(input.url, error);
  }
  const code = read?.manifest.code ?? input.code ?? listing.serverName?.toLowerCase().replace(/[^a-z0-9_-]+/g, '-') ?? '';
  if (input.code && read && input.code !== read.manifest.code) {
    throw new DomainError('VALIDATION_ERROR', `The manifest declares the code ${read.manifest.code}, not ${input.code}`, { field: 'code' });
  }
  if (!isSkillName(code)) throw new DomainError('VALIDATION_ERROR', `${JSON.stringify(code)} is not a usable skill code; give one in code`, { field: 'code' });
  if (isBuiltinSkill(code)) throw new DomainError('VALIDATION_ERROR', `${code} is a built-in skill; register under another code`, { field: 'code' });
  const tools = catalogTools(code, listing.tools, read?.manifest);
  if (tools.length === 0) throw new DomainError('VALIDATION_ERROR', `The MCP server at ${input.url} lists no tools`, { field: 'url' });
  const skill: RegisteredSkill = {
    code,
    name: input.name ?? read?.extras.name ?? code,
    description: read?.extras.description ?? `MCP server at ${given.origin}`,
    version: read?.manifest.version ?? '0.0.0',
    url: input.url,
    mcpUrl: given.href,
    ...(input.bearer ? { bearer: input.bearer } : {}),
    turnTokenSecret: input.turn_token_secret ?? randomBase62(48),
    ...(read?.extras.oauth ? { oauthProvider: read.extras.oauth.provider } : {}),
    tools,
    ...(read && read.manifest.events.length > 0
      ? { eventsUrl: new URL(read.manifest.endpoints.events.replace(/^\//, ''), baseOf(given)).href, events: read.manifest.events }
      : {}),
    createdAt: deps.now().toISOString(),
  };
  await putSkillItem(deps, workspaceId, `registered#${code}`, skill);
  return skill;
}
