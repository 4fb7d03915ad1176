import { DEFAULT_LIMITS, type Logger, type ToolLimits } from './run-tool.js';

export interface SkillServerOptions {
  /** 0 picks a free port. Default: env PORT, else 0. */
  port?: number;
  /** Bind address. Default: env HOST, else 127.0.0.1. */
  host?: string;
  /** Bearer guarding /mcp and /events. Default: env SKILL_BEARER. Required in production. */
  bearer?: string;
  /** Key for verifying turn tokens. Default: env SKILL_TURN_TOKEN_SECRET. Required in production. */
  turnTokenSecret?: string;
  /** Platform API base URL for serviceApi, e.g. https://api.example.com/en/api/v1. Default: env SERVICE_API_URL. */
  apiUrl?: string;
  limits?: Partial<ToolLimits>;
  log?: Logger;
  /** Default: NODE_ENV === 'production'. */
  production?: boolean;
}

export interface SkillConfig {
  bearer: string;
  /** No bearer outside production: tools may be called without a turn token, as a mock caller. */
  devMode: boolean;
  turnTokenSecret: string | undefined;
  apiUrl: string | undefined;
  limits: ToolLimits;
  log: Logger;
  warnings: string[];
}

export const consoleLogger: Logger = {
  error: (message, detail) => console.error(`[skill] ${message}`, detail ?? ''),
  warn: (message) => console.warn(`[skill] ${message}`),
  info: (message) => console.log(`[skill] ${message}`),
};

export const DEV_MODE_WARNING =
  'DEVELOPMENT MODE (SKILL_BEARER is empty, NODE_ENV is not production): /mcp and /events accept any caller, and a call ' +
  'without a turn token runs as a mock caller holding every capability of this skill. Never deploy a skill like this.';

function positive(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (!Number.isFinite(value) || value <= 0) throw new Error(`limits.${name} must be a positive number`);
  return value;
}

/** Settings from options, then the environment. Production refuses to run without its secrets. */
export function resolveConfig(options: SkillServerOptions, env: NodeJS.ProcessEnv = process.env): SkillConfig {
  const production = options.production ?? env.NODE_ENV === 'production';
  const bearer = options.bearer ?? env.SKILL_BEARER ?? '';
  const turnTokenSecret = options.turnTokenSecret ?? env.SKILL_TURN_TOKEN_SECRET ?? undefined;
  const log = options.log ?? consoleLogger;
  if (production && !bearer) throw new Error('SKILL_BEARER is required in production: refusing to start an unguarded skill');
  if (production && !turnTokenSecret) throw new Error('SKILL_TURN_TOKEN_SECRET is required in production: callers could not be verified');
  const devMode = !production && !bearer;
  const warnings: string[] = [];
  if (devMode) warnings.push(DEV_MODE_WARNING);
  if (!turnTokenSecret) warnings.push('SKILL_TURN_TOKEN_SECRET is not set: calls with a turn token are refused until it is set (setTurnTokenSecret)');
  const apiUrl = options.apiUrl ?? env.SERVICE_API_URL ?? undefined;
  if (apiUrl !== undefined && !URL.canParse(apiUrl)) throw new Error(`SERVICE_API_URL is not a URL: ${apiUrl}`);
  for (const warning of warnings) log.warn(warning);
  return {
    bearer,
    devMode,
    turnTokenSecret,
    apiUrl,
    limits: {
      timeoutMs: positive(options.limits?.timeoutMs, DEFAULT_LIMITS.timeoutMs, 'timeoutMs'),
      maxResponseBytes: positive(options.limits?.maxResponseBytes, DEFAULT_LIMITS.maxResponseBytes, 'maxResponseBytes'),
    },
    log,
    warnings,
  };
}
