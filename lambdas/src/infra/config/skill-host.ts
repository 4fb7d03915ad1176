import * as z from 'zod';

/** Where the platform reaches one of its own (built-in) skills. */
export interface BuiltinEndpoint {
  /** The skill's MCP endpoint, e.g. http://127.0.0.1:41234/mcp */
  mcpUrl: string;
  bearer: string;
}

/**
 * The platform's side of skills. These secrets belong to the platform and its own skills only: a third-party
 * skill gets its own turn-token key at registration and never sees any of them.
 */
export interface SkillHost {
  /** Signs the turn tokens of built-in skills and verifies them on the serviceApi routes. */
  turnTokenSecret: string;
  /** Opens the administrative routes; undefined closes them. */
  masterKey: string | undefined;
  builtins: Readonly<Record<string, BuiltinEndpoint>>;
}

const HostEnv = z.object({
  SKILL_TURN_TOKEN_SECRET: z.string().min(32, 'SKILL_TURN_TOKEN_SECRET must be at least 32 characters'),
  SERVICE_MASTER_KEY: z.string().min(32, 'SERVICE_MASTER_KEY must be at least 32 characters').optional(),
  /** JSON object: skill code -> MCP endpoint URL of the built-in skill's Function URL. */
  BUILTIN_SKILL_URLS: z.string().default('{}'),
  /** The bearer shared by the built-in skill functions. */
  SKILL_BEARER: z.string().default(''),
});

/** The skill host a Lambda's settings describe (the entries read them: withSkillHost, the local platform). */
export function skillHostFromEnv(env: NodeJS.ProcessEnv): SkillHost {
  const parsed = HostEnv.parse(env);
  const urls = z.record(z.string(), z.url()).parse(JSON.parse(parsed.BUILTIN_SKILL_URLS));
  return {
    turnTokenSecret: parsed.SKILL_TURN_TOKEN_SECRET,
    masterKey: parsed.SERVICE_MASTER_KEY,
    builtins: Object.fromEntries(Object.entries(urls).map(([code, mcpUrl]) => [code, { mcpUrl, bearer: parsed.SKILL_BEARER }])),
  };
}
