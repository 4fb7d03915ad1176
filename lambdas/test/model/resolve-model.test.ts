import { generateText, Output, stepCountIs, streamText, tool } from 'ai';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ModelSettingError, parseModelSetting, resolveModel } from '../../src/infra/model';
import { jsonReply, sseReply, startLoopbackServer, type LoopbackServer } from './loopback-server';

// resolveModel's three kinds; the hosted ones spoken to over their real wire protocols by a loopback server.

let server: LoopbackServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const weatherTool = tool({
  description: 'Weather for a city',
  inputSchema: z.object({ city: z.string() }),
  execute: async ({ city }) => ({ city, forecast: 'sunny' }),
});

describe('resolveModel: settings', () => {
  it('defaults to the offline model when MODEL is not set', () => {
    const saved = process.env.MODEL;
    delete process.env.MODEL;
    try {
      expect(resolveModel().provider).toBe('offline');
    } finally {
      if (saved !== undefined) process.env.MODEL = saved;
    }
  });

  it('parses the three accepted forms', () => {
    expect(parseModelSetting('offline')).toEqual({ kind: 'offline' });
    expect(parseModelSetting('bedrock:anthropic.claude-3-5-haiku-20241022-v1:0')).toEqual({
      kind: 'bedrock',
      modelId: 'anthropic.claude-3-5-haiku-20241022-v1:0',
    });
    expect(parseModelSetting('openai:http://localhost:11434/v1/#llama3.1:8b')).toEqual({
      kind: 'openai',
      baseURL: 'http://localhost:11434/v1',
      model: 'llama3.1:8b',
    });
  });

  it.each([
    ['gpt-4o', 'unknown model kind'],
    ['', 'unknown model kind'],
    ['bedrock:', 'model id is missing'],
    ['bedrock:my model', 'model id is missing or contains spaces'],
    ['openai:https://api.example.com/v1', 'model name after "#" is missing'],
    ['openai:not a url#m', 'is not a URL'],
    ['openai:ftp://files.example.com#m', 'must be http or https'],
    ['openai:https://user:secret@api.example.com/v1#m', 'must not contain credentials'],
  ])('rejects %j with an error naming the accepted forms', (setting, reason) => {
    expect(() => resolveModel(setting, {})).toThrow(ModelSettingError);
    expect(() => resolveModel(setting, {})).toThrow(reason);
    expect(() => resolveModel(setting, {})).toThrow('Accepted forms: offline, bedrock:<model id> or openai:<base url>#<model>.');
  });

  it('does not echo a URL password in the error', () => {
    expect(() => resolveModel('openai:https://user:hunter2@api.example.com/v1#m', {})).toThrow(
      'Invalid MODEL setting "openai:https://***@api.example.com/v1#m": the base URL must not contain credentials',
    );
  });

  it('asks for the AWS region when Bedrock has none', () => {
    expect(() => resolveModel('bedrock:amazon.nova-lite-v1:0', {})).toThrow('set AWS_REGION');
  });
});

describe('resolveModel: OpenAI-compatible endpoint', () => {
  const completion = (message: object, finishReason: string, usage = { prompt_tokens: 31, completion_tokens: 7, total_tokens: 38 }) => ({
    id: 'chatcmpl-1',
    object: 'chat.completion',
    created: 1_700_000_000,
    model: 'llama3.1',
    choices: [{ index: 0, message: { role: 'assistant', ...message }, finish_reason: finishReason }],
    usage,
  });

  it('runs a tool loop over chat/completions with the API key from OPENAI_API_KEY', async () => {
    server = await startLoopbackServer([
      jsonReply(
        completion(
          { content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'weather', arguments: '{"city":"Izmir"}' } }] },
          'tool_calls',
        ),
      ),
      jsonReply(completion({ content: 'Sunny in Izmir.' }, 'stop', { prompt_tokens: 50, completion_tokens: 4, total_tokens: 54 })),
    ]);
    const model = resolveModel(`openai:${server.url}/v1#llama3.1`, { OPENAI_API_KEY: 'sk-test-123' });
    const result = await generateText({ model, system: 'Be brief.', prompt: 'Weather in Izmir?', tools: { weather: weatherTool }, stopWhen: stepCountIs(3) });

    expect(result.text).toBe('Sunny in Izmir.');
    expect(result.totalUsage).toMatchObject({ inputTokens: 81, outputTokens: 11, totalTokens: 92 });
    expect(server.received).toHaveLength(2);
    const [first, second] = server.received;
    expect(first?.method).toBe('POST');
    expect(first?.path).toBe('/v1/chat/completions');
    expect(first?.headers.authorization).toBe('Bearer sk-test-123');
    expect(first?.body).toMatchObject({
      model: 'llama3.1',
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Weather in Izmir?' },
      ],
      tools: [{ type: 'function', function: { name: 'weather', description: 'Weather for a city', parameters: { type: 'object' } } }],
    });
    expect(second?.body).toMatchObject({
      messages: [
        { role: 'system' },
        { role: 'user' },
        { role: 'assistant', tool_calls: [{ id: 'call_1', function: { name: 'weather', arguments: '{"city":"Izmir"}' } }] },
        { role: 'tool', tool_call_id: 'call_1', content: JSON.stringify({ city: 'Izmir', forecast: 'sunny' }) },
      ],
    });
  });

  it('streams over server-sent events and asks for usage in the stream', async () => {
    const chunk = (delta: object, finishReason: string | null = null, usage?: object) => ({
      id: 'chatcmpl-2',
      object: 'chat.completion.chunk',
      created: 1_700_000_000,
      model: 'llama3.1',
      choices: usage ? [] : [{ index: 0, delta, finish_reason: finishReason }],
      ...(usage ? { usage } : {}),
    });
    server = await startLoopbackServer([
      sseReply([
        chunk({ role: 'assistant', content: 'Hello' }),
        chunk({ content: ' from' }),
        chunk({ content: ' the stream.' }),
        chunk({}, 'stop'),
        chunk({}, null, { prompt_tokens: 12, completion_tokens: 5, total_tokens: 17 }),
      ]),
    ]);
    const model = resolveModel(`openai:${server.url}/v1#llama3.1`, {});
    const result = streamText({ model, prompt: 'Say hello' });
    const deltas: string[] = [];
    for await (const delta of result.textStream) deltas.push(delta);

    expect(deltas).toEqual(['Hello', ' from', ' the stream.']);
    expect(await result.usage).toMatchObject({ inputTokens: 12, outputTokens: 5, totalTokens: 17 });
    expect(server.received[0]?.headers.authorization).toBeUndefined();
    expect(server.received[0]?.body).toMatchObject({ model: 'llama3.1', stream: true, stream_options: { include_usage: true } });
  });

  it('sends the output schema as response_format json_schema and parses the JSON reply', async () => {
    server = await startLoopbackServer([jsonReply(completion({ content: '{"city":"Ankara","temperature":21}' }, 'stop'))]);
    const model = resolveModel(`openai:${server.url}/v1#llama3.1`, {});
    const schema = z.object({ city: z.string(), temperature: z.number().describe('Degrees Celsius') });
    const { output } = await generateText({ model, output: Output.object({ schema }), prompt: 'Weather in Ankara as JSON' });

    expect(output).toEqual({ city: 'Ankara', temperature: 21 });
    expect(server.received[0]?.body).toMatchObject({
      response_format: {
        type: 'json_schema',
        json_schema: { schema: { properties: { temperature: { type: 'number', description: 'Degrees Celsius' } } } },
      },
    });
  });

  it('surfaces an HTTP error from the endpoint as an API call error', async () => {
    server = await startLoopbackServer([jsonReply({ error: { message: 'model not found', type: 'invalid_request_error' } }, 404)]);
    const model = resolveModel(`openai:${server.url}/v1#missing`, {});
    await expect(generateText({ model, prompt: 'hi', maxRetries: 0 })).rejects.toThrow('model not found');
  });
});

describe('resolveModel: Amazon Bedrock', () => {
  const converse = (content: object[], stopReason: string, usage = { inputTokens: 40, outputTokens: 9, totalTokens: 49 }) => ({
    output: { message: { role: 'assistant', content } },
    stopReason,
    usage,
    metrics: { latencyMs: 120 },
  });
  const awsEnv = (url: string) => ({
    AWS_REGION: 'eu-central-1',
    AWS_ACCESS_KEY_ID: 'AKIDEXAMPLE',
    AWS_SECRET_ACCESS_KEY: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY',
    AWS_SESSION_TOKEN: 'session-token-example',
    AWS_ENDPOINT_URL_BEDROCK_RUNTIME: url,
  });

  it('runs a tool loop over the Converse API, signed with SigV4 from the standard AWS variables', async () => {
    server = await startLoopbackServer([
      jsonReply(converse([{ text: 'Let me check.' }, { toolUse: { toolUseId: 'tu_1', name: 'weather', input: { city: 'Bursa' } } }], 'tool_use')),
      jsonReply(converse([{ text: 'Sunny in Bursa.' }], 'end_turn', { inputTokens: 70, outputTokens: 5, totalTokens: 75 })),
    ]);
    const model = resolveModel('bedrock:amazon.nova-lite-v1:0', awsEnv(server.url));
    const result = await generateText({ model, system: 'Be brief.', prompt: 'Weather in Bursa?', tools: { weather: weatherTool }, stopWhen: stepCountIs(3) });

    expect(result.text).toBe('Sunny in Bursa.');
    expect(result.steps[0]?.toolCalls).toMatchObject([{ toolName: 'weather', input: { city: 'Bursa' } }]);
    expect(result.totalUsage).toMatchObject({ inputTokens: 110, outputTokens: 14, totalTokens: 124 });
    const [first, second] = server.received;
    expect(first?.method).toBe('POST');
    expect(first?.path).toBe('/model/amazon.nova-lite-v1%3A0/converse');
    expect(first?.headers.authorization).toMatch(
      /^AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE\/\d{8}\/eu-central-1\/bedrock\/aws4_request, SignedHeaders=.+, Signature=[0-9a-f]{64}$/,
    );
    expect(first?.headers['x-amz-security-token']).toBe('session-token-example');
    expect(first?.body).toMatchObject({
      system: [{ text: 'Be brief.' }],
      messages: [{ role: 'user', content: [{ text: 'Weather in Bursa?' }] }],
      toolConfig: { tools: [{ toolSpec: { name: 'weather', description: 'Weather for a city', inputSchema: { json: { type: 'object' } } } }] },
    });
    expect(second?.body).toMatchObject({
      messages: [
        { role: 'user' },
        { role: 'assistant', content: [{ text: 'Let me check.' }, { toolUse: { toolUseId: 'tu_1', name: 'weather', input: { city: 'Bursa' } } }] },
        { role: 'user', content: [{ toolResult: { toolUseId: 'tu_1', content: [{ text: JSON.stringify({ city: 'Bursa', forecast: 'sunny' }) }] } }] },
      ],
    });
  });

  it('uses a Bedrock API key as a bearer token when AWS_BEARER_TOKEN_BEDROCK is set', async () => {
    server = await startLoopbackServer([jsonReply(converse([{ text: 'Hi.' }], 'end_turn'))]);
    const model = resolveModel('bedrock:amazon.nova-lite-v1:0', {
      AWS_REGION: 'us-east-1',
      AWS_BEARER_TOKEN_BEDROCK: 'bedrock-api-key',
      AWS_ENDPOINT_URL: server.url,
    });
    const { text, usage } = await generateText({ model, prompt: 'Hello' });

    expect(text).toBe('Hi.');
    expect(usage).toMatchObject({ inputTokens: 40, outputTokens: 9 });
    expect(server.received[0]?.headers.authorization).toBe('Bearer bedrock-api-key');
  });
});
