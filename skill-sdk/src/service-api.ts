import * as z from 'zod';
import { API_CALLER, type ApiCaller, type SkillContext } from './context.js';
import { SkillError } from './errors.js';
import { TURN_TOKEN_HEADER } from './turn-token.js';

/** A platform API call failed; `code` is the envelope's error.code (e.g. SKILL_OAUTH_REQUIRED). */
export class ServiceApiError extends SkillError {
  constructor(
    code: string,
    message: string,
    readonly status?: number,
  ) {
    super(code, message);
    this.name = 'ServiceApiError';
  }
}

const METHOD = /^skills\/([a-z][a-z0-9_-]*)\/([a-z][a-z0-9_]*)$/;

const envelopeSchema = z.object({
  status: z.boolean(),
  data: z.unknown().optional(),
  msg: z.string().optional(),
  error: z.object({ code: z.string() }).optional(),
});

/**
 * Calls the platform API as the turn's caller: `serviceApi(ctx, "skills/<code>/<method>", params)`.
 * Returns the envelope's `data`; throws ServiceApiError with the envelope's error.code otherwise.
 */
export async function serviceApi<T = unknown>(ctx: SkillContext, method: string, params: Record<string, unknown> = {}): Promise<T> {
  const match = METHOD.exec(method);
  if (!match) throw new ServiceApiError('INVALID_METHOD', `serviceApi method must look like "skills/<code>/<method>", got "${method}"`);
  if (match[1] !== ctx.skill) {
    throw new ServiceApiError('INVALID_METHOD', `serviceApi: skill "${ctx.skill}" may only call skills/${ctx.skill}/<method>`);
  }
  return (await ctx[API_CALLER](method, params)) as T;
}

export interface HttpApiCallerOptions {
  /** Base URL of the platform API, ending with the version, e.g. http://127.0.0.1:8787/en/api/v1 */
  apiUrl: string | undefined;
  turnToken: string | undefined;
  language: string;
  signal: AbortSignal;
}

/** POSTs `<apiUrl>/<method>/` with the turn token, as every platform route is published with a trailing slash. */
export function httpApiCaller({ apiUrl, turnToken, language, signal }: HttpApiCallerOptions): ApiCaller {
  return async (method, params) => {
    if (!apiUrl) throw new ServiceApiError('API_URL_MISSING', 'serviceApi needs the platform URL: set SERVICE_API_URL');
    if (!turnToken) throw new ServiceApiError('TURN_TOKEN_MISSING', 'serviceApi needs the turn token the platform sends with each call');
    let response: Response;
    try {
      response = await fetch(`${apiUrl.replace(/\/+$/, '')}/${method}/`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json',
          [TURN_TOKEN_HEADER]: turnToken,
          'x-service-language': language,
        },
        body: JSON.stringify(params),
        signal,
      });
    } catch (error) {
      if (signal.aborted) throw new ServiceApiError('ABORTED', `serviceApi ${method} was aborted`);
      throw new ServiceApiError('API_UNREACHABLE', `serviceApi ${method}: platform unreachable (${(error as Error).message})`);
    }
    const envelope = envelopeSchema.safeParse(await response.json().catch(() => undefined));
    if (!envelope.success) {
      throw new ServiceApiError('BAD_RESPONSE', `serviceApi ${method}: HTTP ${response.status} without a response envelope`, response.status);
    }
    const { status, data, msg, error } = envelope.data;
    if (!response.ok || !status) {
      throw new ServiceApiError(error?.code ?? `HTTP_${response.status}`, msg ?? `serviceApi ${method} failed with HTTP ${response.status}`, response.status);
    }
    return data;
  };
}
