import type { Skill } from './define-skill.js';
import { createSkillHandler, type SkillHttpHandler } from './handler.js';
import type { SkillServerOptions } from './config.js';

/** The fields a Function URL (or API Gateway HTTP API, payload 2.0) event carries that a skill reads. */
export interface FunctionUrlEvent {
  rawPath: string;
  rawQueryString?: string;
  headers?: Record<string, string | undefined>;
  body?: string;
  isBase64Encoded?: boolean;
  requestContext: { http: { method: string } };
}

export interface FunctionUrlResult {
  statusCode: number;
  headers: Record<string, string>;
  body: string;
}

/** Reads a secret's value by ARN; the default asks AWS Secrets Manager. */
export type SecretReader = (arn: string) => Promise<string>;

export async function readFromSecretsManager(arn: string): Promise<string> {
  const { SecretsManagerClient, GetSecretValueCommand } = await import('@aws-sdk/client-secrets-manager');
  const { SecretString } = await new SecretsManagerClient({}).send(new GetSecretValueCommand({ SecretId: arn }));
  if (!SecretString) throw new Error(`The secret ${arn} has no string value`);
  return SecretString;
}

export interface SkillLambdaOptions extends Omit<SkillServerOptions, 'port' | 'host'> {
  readSecret?: SecretReader;
}

/**
 * A skill as a Lambda behind a Function URL: the same routes as startSkill. The bearer and the turn-token key come
 * from Secrets Manager at cold start (SKILL_BEARER_SECRET_ARN, SKILL_TURN_TOKEN_SECRET_ARN), never from plain
 * environment values; explicit options or SKILL_BEARER / SKILL_TURN_TOKEN_SECRET still win, for tests.
 */
export function skillLambdaHandler(skill: Skill, options: SkillLambdaOptions = {}) {
  const { readSecret = readFromSecretsManager, ...serverOptions } = options;
  let handler: Promise<SkillHttpHandler> | undefined;

  async function coldStart(): Promise<SkillHttpHandler> {
    const secret = (arn: string | undefined) => (arn ? readSecret(arn) : Promise.resolve(undefined));
    const [bearer, turnTokenSecret] = await Promise.all([secret(process.env.SKILL_BEARER_SECRET_ARN), secret(process.env.SKILL_TURN_TOKEN_SECRET_ARN)]);
    return createSkillHandler(skill, {
      ...(bearer ? { bearer } : {}),
      ...(turnTokenSecret ? { turnTokenSecret } : {}),
      ...serverOptions,
    });
  }

  return async (event: FunctionUrlEvent): Promise<FunctionUrlResult> => {
    handler ??= coldStart().catch((error: unknown) => {
      handler = undefined;
      throw error;
    });
    const headers = new Headers();
    for (const [name, value] of Object.entries(event.headers ?? {})) if (value !== undefined) headers.set(name, value);
    const body = event.body === undefined ? undefined : event.isBase64Encoded ? Buffer.from(event.body, 'base64').toString('utf8') : event.body;
    const response = await (
      await handler
    )({
      method: event.requestContext.http.method,
      path: `${event.rawPath}${event.rawQueryString ? `?${event.rawQueryString}` : ''}`,
      headers,
      ...(body !== undefined ? { body } : {}),
    });
    return { statusCode: response.status, headers: response.headers, body: response.body };
  };
}
