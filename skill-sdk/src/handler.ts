import * as z from 'zod';
import { bearerGuard } from './bearer.js';
import { callContext, resolveCaller, type Caller } from './caller.js';
import { resolveConfig, type SkillServerOptions } from './config.js';
import type { Skill } from './define-skill.js';
import { createDeadline, TIMED_OUT } from './deadline.js';
import { formatIssues, SkillError } from './errors.js';
import { buildManifest } from './manifest.js';
import { handleMcp, listTools } from './mcp.js';
import { devIdentity } from './mock-identity.js';
import { missingTranslations } from './self-test.js';
import { TurnTokenError } from './turn-token.js';
import { turnTokenVerifier } from './verified-tokens.js';
import { SDK_VERSION } from './version.js';

/** A host-neutral HTTP request: node:http (startSkill) and a Lambda Function URL adapter both map onto it. */
export interface SkillHttpRequest {
  method: string;
  /** Path and query, e.g. `/mcp`. */
  path: string;
  headers: Headers;
  body?: string;
}
export interface SkillHttpResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}
export interface SkillHttpHandler {
  (request: SkillHttpRequest): Promise<SkillHttpResponse>;
  /** Sets (or replaces) the turn-token key while running, e.g. once the platform answered the registration. */
  setTurnTokenSecret(secret: string): void;
}

const eventSchema = z.object({ type: z.string().min(1), id: z.string().optional(), data: z.unknown().optional() });

const CORS = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'GET, POST, OPTIONS',
  'access-control-allow-headers': 'Authorization, Content-Type, Accept, Mcp-Protocol-Version, X-Service-Language, X-Service-Turn-Token',
  'access-control-expose-headers': 'Mcp-Session-Id',
};
/**
 * No `WWW-Authenticate: Bearer` challenge: OAuth-capable MCP clients (the Inspector among them) read one as "start an
 * authorization flow", and a skill has no authorization server. The bearer is a shared secret the platform holds.
 */
const UNAUTHORIZED = 'Unauthorized: send Authorization: Bearer <SKILL_BEARER> (the skill uses a shared bearer, not OAuth)';
const ROUTES: Record<string, string> = { '/mcp': 'POST', '/events': 'POST', '/test': 'POST', '/health': 'GET', '/manifest': 'GET' };

function json(status: number, body: unknown, headers: Record<string, string> = {}): SkillHttpResponse {
  return { status, headers: { 'content-type': 'application/json', ...CORS, ...headers }, body: JSON.stringify(body) };
}
const failure = (status: number, code: string, message: string, headers?: Record<string, string>) => json(status, { error: { code, message } }, headers);
/** /mcp speaks JSON-RPC even when it refuses. */
const rpcFailure = (status: number, code: number, message: string, headers?: Record<string, string>) =>
  json(status, { jsonrpc: '2.0', error: { code, message }, id: null }, headers);

function parseJson(body: string | undefined): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(body || 'null') };
  } catch {
    return { ok: false };
  }
}

/**
 * The whole skill service as one request -> response function: GET /health, GET /manifest,
 * POST /mcp and POST /events (bearer-guarded), POST /test. startSkill serves it over node:http.
 */
export function createSkillHandler(skill: Skill, options: SkillServerOptions = {}): SkillHttpHandler {
  const config = resolveConfig(options);
  const { limits, log, apiUrl } = config;
  const authorized = bearerGuard(config.bearer);
  const manifest = JSON.stringify(buildManifest(skill, limits));
  const mcpRuntime = { skill, limits, log, toolList: listTools(skill) };
  const translationGaps = missingTranslations(skill);
  let verifyToken = turnTokenVerifier(skill.code, config.turnTokenSecret);
  const withoutToken = config.devMode ? devIdentity(skill) : undefined;

  async function callerOf(headers: Headers): Promise<Caller | TurnTokenError> {
    try {
      return await resolveCaller(headers, skill, verifyToken, withoutToken);
    } catch (error) {
      if (error instanceof TurnTokenError) return error;
      throw error;
    }
  }

  async function mcp(request: SkillHttpRequest): Promise<SkillHttpResponse> {
    if (!authorized(request.headers.get('authorization'))) {
      return rpcFailure(401, -32001, UNAUTHORIZED);
    }
    const body = parseJson(request.body);
    if (!body.ok) return rpcFailure(400, -32700, 'Parse error: the body is not JSON');
    const caller = await callerOf(request.headers);
    if (caller instanceof TurnTokenError) return rpcFailure(401, -32001, `${caller.code}: ${caller.message}`);
    const webRequest = new Request(`http://skill${request.path}`, { method: 'POST', headers: request.headers });
    const response = await handleMcp(mcpRuntime, webRequest, body.value, callContext(skill, caller, apiUrl));
    const headers: Record<string, string> = { ...CORS };
    response.headers.forEach((value, key) => {
      headers[key] = value;
    });
    return { status: response.status, headers, body: await response.text() };
  }

  async function events(request: SkillHttpRequest): Promise<SkillHttpResponse> {
    if (!authorized(request.headers.get('authorization'))) {
      return failure(401, 'UNAUTHORIZED', UNAUTHORIZED);
    }
    const body = parseJson(request.body);
    const event = eventSchema.safeParse(body.ok ? body.value : undefined);
    if (!event.success) {
      return failure(400, 'VALIDATION_ERROR', body.ok ? `Invalid event: ${formatIssues(event.error)}` : 'The body is not JSON');
    }
    const caller = await callerOf(request.headers);
    if (caller instanceof TurnTokenError) return failure(401, caller.code, caller.message);
    const { type, data } = event.data;
    const handle = skill.events[type];
    if (!handle) return json(200, { handled: false, type });
    const deadline = createDeadline(limits.timeoutMs);
    try {
      const outcome = await deadline.race(() => handle(data, callContext(skill, caller, apiUrl)(deadline.signal)));
      if (outcome === TIMED_OUT) return failure(504, 'EVENT_TIMEOUT', `event ${type} did not finish within ${limits.timeoutMs / 1000} s`);
      return json(200, { handled: true, type });
    } catch (error) {
      if (error instanceof SkillError) return failure(500, error.code, error.message);
      log.error(`event ${type} failed`, error);
      return failure(500, 'EVENT_FAILED', `event ${type} failed: ${(error as Error).message}`);
    }
  }

  /** A probe for registration and operators: what this skill sees of the caller, and its configuration gaps. */
  async function selfTest(request: SkillHttpRequest): Promise<SkillHttpResponse> {
    const caller = await callerOf(request.headers);
    const bearer = config.bearer ? (authorized(request.headers.get('authorization')) ? 'valid' : 'invalid') : 'not_required';
    const turnToken = caller instanceof TurnTokenError ? caller.code : caller.verified ? 'valid' : 'absent';
    const warnings = [
      ...config.warnings,
      ...(apiUrl ? [] : ['SERVICE_API_URL is not set: serviceApi calls will fail']),
      ...Object.entries(translationGaps).map(([language, keys]) => `locale ${language} lacks: ${keys.join(', ')}`),
    ];
    return json(200, {
      ok: bearer !== 'invalid' && (turnToken === 'valid' || turnToken === 'absent'),
      code: skill.code,
      version: skill.version,
      sdkVersion: SDK_VERSION,
      devMode: config.devMode,
      request: {
        bearer,
        turnToken,
        language: caller instanceof TurnTokenError ? undefined : caller.language,
      },
      tools: [...skill.tools.keys()],
      warnings,
    });
  }

  async function route(request: SkillHttpRequest): Promise<SkillHttpResponse> {
    const path = request.path.split('?')[0] ?? '/';
    const method = ROUTES[path];
    if (!method) return failure(404, 'NOT_FOUND', `No route ${path}`);
    if (request.method === 'OPTIONS') return { status: 204, headers: { ...CORS }, body: '' };
    if (request.method !== method) return failure(405, 'METHOD_NOT_ALLOWED', `${path} accepts ${method}`, { allow: method });
    switch (path) {
      case '/mcp':
        return mcp(request);
      case '/events':
        return events(request);
      case '/test':
        return selfTest(request);
      case '/health':
        return json(200, { status: 'ok', code: skill.code, version: skill.version });
      default:
        return { status: 200, headers: { 'content-type': 'application/json', ...CORS }, body: manifest };
    }
  }

  const handler = async (request: SkillHttpRequest) => {
    try {
      return await route(request);
    } catch (error) {
      log.error(`${request.method} ${request.path} failed`, error);
      return failure(500, 'INTERNAL_ERROR', 'The skill could not handle the request');
    }
  };
  return Object.assign(handler, {
    setTurnTokenSecret(secret: string) {
      if (secret.length < 32) throw new Error('The turn-token key must be at least 32 characters');
      verifyToken = turnTokenVerifier(skill.code, secret);
    },
  });
}
