import { generateText, stepCountIs, streamText, tool } from 'ai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { scriptedModel } from '../support/scripted-model';

describe('scriptedModel', () => {
  const lookup = () => {
    const inputs: unknown[] = [];
    return {
      inputs,
      tools: {
        lookup: tool({
          inputSchema: z.object({ id: z.string() }),
          execute: async (input) => {
            inputs.push(input);
            return { found: true };
          },
        }),
      },
    };
  };

  it('plays tool calls and text turn by turn through generateText, reporting the scripted usage', async () => {
    const { inputs, tools } = lookup();
    const model = scriptedModel([{ toolCalls: [{ toolName: 'lookup', input: { id: 'c_1' } }], usage: { input: 100, output: 20 } }, { text: 'Found it.' }]);
    const result = await generateText({ model, tools, stopWhen: stepCountIs(5), prompt: 'Find c_1' });

    expect(inputs).toEqual([{ id: 'c_1' }]);
    expect(result.text).toBe('Found it.');
    expect(result.totalUsage).toMatchObject({ inputTokens: 110, outputTokens: 25 });
    expect(model.doGenerateCalls).toHaveLength(2);
    expect(model.doGenerateCalls[1]?.prompt.at(-1)).toMatchObject({
      role: 'tool',
      content: [{ toolName: 'lookup', output: { type: 'json', value: { found: true } } }],
    });
  });

  it('streams the same script through streamText', async () => {
    const { inputs, tools } = lookup();
    const model = scriptedModel([{ toolCalls: [{ toolName: 'lookup', input: { id: 'c_2' } }] }, { text: 'Found the second one.' }]);
    const result = streamText({ model, tools, stopWhen: stepCountIs(5), prompt: 'Find c_2' });

    expect(await result.text).toBe('Found the second one.');
    expect(inputs).toEqual([{ id: 'c_2' }]);
    expect(model.doStreamCalls).toHaveLength(2);
  });

  it('fails clearly when called more often than scripted', async () => {
    const model = scriptedModel([]);
    await expect(generateText({ model, prompt: 'hi', maxRetries: 0 })).rejects.toThrow('scriptedModel: call 1 has no scripted turn (the script has 0)');
  });
});
