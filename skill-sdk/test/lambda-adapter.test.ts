import { mintTurnToken } from '@service/skill-sdk';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { afterEach, describe, expect, it } from 'vitest';
import { skillLambdaHandler } from '@service/skill-sdk/lambda';
import { loyalty } from '../examples/loyalty/skill';

const SECRETS: Record<string, string> = { 'arn:bearer': 'bearer-from-secrets-manager', 'arn:turn': 'turn-token-key-from-secrets-manager-0123' };

function functionUrlEvent(method: string, rawPath: string, headers: Record<string, string>, body?: unknown): APIGatewayProxyEventV2 {
  return {
    version: '2.0',
    routeKey: '$default',
    rawPath,
    rawQueryString: '',
    headers,
    requestContext: {
      http: { method, path: rawPath, protocol: 'HTTP/1.1', sourceIp: '127.0.0.1', userAgent: 'test' },
    } as APIGatewayProxyEventV2['requestContext'],
    ...(body === undefined ? {} : { body: Buffer.from(JSON.stringify(body)).toString('base64'), isBase64Encoded: true }),
    isBase64Encoded: body !== undefined,
  };
}

describe('a skill as a Lambda behind a Function URL', () => {
  afterEach(() => {
    delete process.env.SKILL_BEARER_SECRET_ARN;
    delete process.env.SKILL_TURN_TOKEN_SECRET_ARN;
  });

  it('reads the bearer and the turn-token key from the secret store at cold start and serves the same routes', async () => {
    process.env.SKILL_BEARER_SECRET_ARN = 'arn:bearer';
    process.env.SKILL_TURN_TOKEN_SECRET_ARN = 'arn:turn';
    const reads: string[] = [];
    const handler = skillLambdaHandler(loyalty, { production: true, readSecret: async (arn) => (reads.push(arn), SECRETS[arn]!) });

    const manifest = await handler(functionUrlEvent('GET', '/manifest', {}));
    expect(manifest.statusCode).toBe(200);
    expect(JSON.parse(manifest.body as string).code).toBe('loyalty');

    const list = { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} };
    const accept = 'application/json, text/event-stream';
    const refused = await handler(functionUrlEvent('POST', '/mcp', { 'content-type': 'application/json', accept, authorization: 'Bearer wrong' }, list));
    expect(refused.statusCode).toBe(401);

    const token = await mintTurnToken({ accountId: '3c1f2e4d-5a6b-4c7d-8e9f-0a1b2c3d4e5f', skill: 'loyalty' }, { secret: SECRETS['arn:turn']! });
    const listed = await handler(
      functionUrlEvent(
        'POST',
        '/mcp',
        { 'content-type': 'application/json', accept, authorization: `Bearer ${SECRETS['arn:bearer']}`, 'x-service-turn-token': token },
        list,
      ),
    );
    expect(listed.statusCode).toBe(200);
    const names = (JSON.parse(listed.body as string) as { result: { tools: { name: string }[] } }).result.tools.map((tool) => tool.name);
    expect(names.every((name) => name.startsWith('loyalty__'))).toBe(true);
    expect(reads.sort()).toEqual(['arn:bearer', 'arn:turn']);
  });

  it('refuses to serve in production when no bearer reaches it', async () => {
    const handler = skillLambdaHandler(loyalty, { production: true, readSecret: async () => 'unused' });
    await expect(handler(functionUrlEvent('GET', '/health', {}))).rejects.toThrow(/SKILL_BEARER is required/);
  });
});
