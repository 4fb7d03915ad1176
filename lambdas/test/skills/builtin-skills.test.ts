import { executeTool } from '@service/skill-sdk/test';
import { describe, expect, it } from 'vitest';
import type { HttpEvent } from '../../src/infra/http/event';
import { contactsSkill } from '../../src/domains/skills/builtin/contacts';
import { emailSkill } from '../../src/domains/skills/builtin/email';
import { skillLambdaHandler } from '@service/skill-sdk/lambda';

const event = (method: string, path: string, headers: Record<string, string> = {}, body?: string) =>
  ({
    rawPath: path,
    rawQueryString: '',
    headers,
    requestContext: { http: { method } },
    ...(body ? { body, isBase64Encoded: false } : {}),
  }) as unknown as HttpEvent;

describe('the built-in skills, written with the SDK', () => {
  it('answer in the caller’s language and act only through serviceApi', async () => {
    const sent = { message_id: 'msg_1', from: 'ada@agents.service.local', to: 'bob@example.com' };
    const result = await executeTool(
      emailSkill,
      'send',
      { to: 'bob@example.com', subject: 'Hi', body: 'Hello Bob' },
      { language: 'tr', api: { 'skills/email/send': sent } },
    );
    expect(result.isError).toBeUndefined();
    expect(result.structuredContent).toMatchObject({
      status: 'sent',
      ...sent,
      message: 'bob@example.com adresine ada@agents.service.local adresinden e-posta gönderildi',
    });
    const invalid = await executeTool(emailSkill, 'send', { to: 'not an address', subject: 'Hi', body: 'Hello' });
    expect(invalid.isError).toBe(true);
    const withoutBody = await executeTool(emailSkill, 'send', { to: 'bob@example.com', subject: 'Hi' });
    expect(withoutBody.isError).toBe(true);
  });

  it('serve the SDK routes from a Function URL event: manifest open, /mcp behind the bearer', async () => {
    const handler = skillLambdaHandler(contactsSkill, { bearer: 'b'.repeat(32), production: false, log: { warn: () => undefined, error: () => undefined } });
    const manifest = await handler(event('GET', '/manifest'));
    expect(manifest.statusCode).toBe(200);
    const tools = (JSON.parse(String(manifest.body)) as { tools: { name: string; annotations?: { readOnlyHint?: boolean } }[] }).tools;
    expect(tools.map((tool) => [tool.name, tool.annotations?.readOnlyHint])).toEqual([
      ['contacts__create', false],
      ['contacts__search', true],
    ]);
    const rpc = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
    expect((await handler(event('POST', '/mcp', { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, rpc))).statusCode).toBe(
      401,
    );
  });
});
