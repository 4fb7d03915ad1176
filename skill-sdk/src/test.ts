/**
 * Test helpers, imported from `@service/skill-sdk/test`: run tools directly, with no HTTP server.
 */
import { createContext, type SkillContext } from './context.js';
import { findTool, type Skill } from './define-skill.js';
import { normalizeLanguage } from './language.js';
import { DEFAULT_LIMITS, runTool, type Logger, type ToolLimits, type ToolResult } from './run-tool.js';
import { ServiceApiError } from './service-api.js';
import { createTranslator } from './translate.js';

import { TEST_IDS } from './mock-identity.js';

export { TEST_IDS };
/** The mock caller's role unless overridden. */
export const TEST_ROLES: readonly string[] = Object.freeze(['member']);

/** Answers for serviceApi: method -> answer (a value, or a function of the params), or one function for all. */
export type MockApi = Record<string, unknown> | ((method: string, params: Record<string, unknown>) => unknown);

export interface MockContextOverrides {
  /** Binds ctx.t to this skill's locales. */
  skill?: Skill;
  language?: string;
  roles?: readonly string[];
  /** Capabilities granted by the "platform"; when set they override the tools' roles. */
  capabilities?: readonly string[];
  accountId?: string;
  companyId?: string;
  userId?: string;
  turnToken?: string;
  api?: MockApi;
  signal?: AbortSignal;
}

export interface ApiCall {
  method: string;
  params: Record<string, unknown>;
}
export interface MockContext extends SkillContext {
  /** serviceApi calls made through this context, in order. */
  readonly apiCalls: readonly ApiCall[];
}

function answer(api: MockApi | undefined, method: string, params: Record<string, unknown>): unknown {
  if (typeof api === 'function') return api(method, params);
  if (api && method in api) {
    const value = api[method];
    return typeof value === 'function' ? (value as (p: Record<string, unknown>) => unknown)(params) : value;
  }
  throw new ServiceApiError('API_NOT_MOCKED', `serviceApi ${method} has no mock answer: pass it in overrides.api`);
}

/**
 * A fully initialized ctx: ctx.t bound to the skill's locales (when `skill` is given), a mock platform-API
 * caller that records calls, and test identities (TEST_IDS, role TEST_ROLES). Non-UUID ids are dropped, as
 * in real calls.
 */
export function createMockContext(overrides: MockContextOverrides = {}): MockContext {
  const { skill } = overrides;
  const defaultLocale = skill?.defaultLocale ?? 'en';
  const language = normalizeLanguage(overrides.language, defaultLocale);
  const apiCalls: ApiCall[] = [];
  return createContext(
    {
      skill: skill?.code ?? 'test',
      language,
      t: createTranslator(skill?.locales ?? {}, language, defaultLocale),
      turnToken: overrides.turnToken ?? 'mock-turn-token',
      accountId: 'accountId' in overrides ? overrides.accountId : TEST_IDS.accountId,
      companyId: 'companyId' in overrides ? overrides.companyId : TEST_IDS.companyId,
      userId: 'userId' in overrides ? overrides.userId : TEST_IDS.userId,
      roles: overrides.roles ?? TEST_ROLES,
      capabilities: overrides.capabilities,
      signal: overrides.signal ?? new AbortController().signal,
      apiCaller: async (method, params) => {
        apiCalls.push({ method, params });
        return answer(overrides.api, method, params);
      },
    },
    { apiCalls },
  );
}

export interface ExecuteToolOptions extends Partial<ToolLimits> {
  log?: Logger;
}

const quietLog: Logger = { error: () => undefined, warn: () => undefined };

/**
 * Runs a tool as POST /mcp would: permission check, input validation, handler under the deadline, result cap.
 * `toolName` is the action (`find_contact`) or the model-facing name (`crm__find_contact`).
 * Without `roles` or `capabilities` in the overrides the platform is taken to have granted this tool.
 */
export async function executeTool(
  skill: Skill,
  toolName: string,
  input: unknown,
  contextOverrides: MockContextOverrides = {},
  options: ExecuteToolOptions = {},
): Promise<ToolResult> {
  const tool = findTool(skill, toolName);
  if (!tool) {
    throw new Error(`Skill ${skill.code} has no tool "${toolName}"; it has ${[...skill.tools.values()].map((t) => t.action).join(', ')}`);
  }
  const granted = contextOverrides.roles === undefined && contextOverrides.capabilities === undefined;
  return runTool(tool, input, (signal) => createMockContext({ ...contextOverrides, skill, signal, ...(granted && { capabilities: [tool.capability] }) }), {
    limits: {
      timeoutMs: options.timeoutMs ?? DEFAULT_LIMITS.timeoutMs,
      maxResponseBytes: options.maxResponseBytes ?? DEFAULT_LIMITS.maxResponseBytes,
    },
    log: options.log ?? quietLog,
    signal: contextOverrides.signal,
  });
}
