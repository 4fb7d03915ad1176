import { generateText, stepCountIs, streamText, tool } from 'ai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createOfflineModel } from '../src';

// The offline model driven through the AI SDK's own tool loop, with real tools that record their inputs.

function recordingTools() {
  const calls: Array<{ tool: string; input: unknown }> = [];
  const tools = {
    contacts__create: tool({
      description: 'Create a contact in the workspace address book',
      inputSchema: z.object({
        name: z.string().describe('Full name of the person'),
        email: z.email(),
        company: z.string().optional(),
      }),
      execute: async (input) => {
        calls.push({ tool: 'contacts__create', input });
        return { id: 'ct_1', name: input.name };
      },
    }),
    email__send: tool({
      description: "Send an e-mail from the agent's own address",
      inputSchema: z.object({ to: z.email(), subject: z.string(), body: z.string() }),
      execute: async (input) => {
        calls.push({ tool: 'email__send', input });
        return { message_id: 'msg_1', status: 'sent' };
      },
    }),
    calendar__create_event: tool({
      description: 'Book a meeting in the calendar',
      inputSchema: z.object({ title: z.string(), start: z.iso.datetime(), attendee_email: z.email().optional() }),
      execute: async (input) => {
        calls.push({ tool: 'calendar__create_event', input });
        return { id: 'ev_1' };
      },
    }),
    tasks__list: tool({
      description: 'List open tasks',
      inputSchema: z.object({}),
      execute: async () => {
        calls.push({ tool: 'tasks__list', input: {} });
        return [];
      },
    }),
  };
  return { calls, tools };
}

describe('offline model: tool calls', () => {
  it('calls the tool the request names, with values taken from the message, then summarises the result', async () => {
    const { calls, tools } = recordingTools();
    const result = await generateText({
      model: createOfflineModel(),
      tools,
      stopWhen: stepCountIs(5),
      prompt: 'Please add Jane Doe (jane.doe@example.com) to my contacts.',
    });
    expect(calls).toEqual([{ tool: 'contacts__create', input: { name: 'Jane Doe', email: 'jane.doe@example.com' } }]);
    expect(result.steps).toHaveLength(2);
    expect(result.steps[0]?.toolCalls.map((call) => call.toolName)).toEqual(['contacts__create']);
    expect(result.text).toBe('Offline demo model: I used contacts__create: id: ct_1, name: Jane Doe.');
    expect(result.finishReason).toBe('stop');
  });

  it('calls every tool a request asks for in one step, and none of them twice', async () => {
    const { calls, tools } = recordingTools();
    const result = await generateText({
      model: createOfflineModel(),
      tools,
      stopWhen: stepCountIs(10),
      prompt: 'Add Jane Doe (jane@example.com) to contacts and send her an e-mail "Welcome aboard" saying "Glad to have you".',
    });
    expect(calls).toEqual([
      { tool: 'contacts__create', input: { name: 'Jane Doe', email: 'jane@example.com' } },
      { tool: 'email__send', input: { to: 'jane@example.com', subject: 'Welcome aboard', body: 'Glad to have you' } },
    ]);
    expect(result.steps).toHaveLength(2);
    expect(result.text).toContain('email__send: message_id: msg_1, status: sent');
  });

  it('fills arguments from a JSON data context whose keys match the property names', async () => {
    const { calls, tools } = recordingTools();
    await generateText({
      model: createOfflineModel(),
      tools,
      stopWhen: stepCountIs(5),
      system: 'Context data (JSON): {"customer": {"name": "Ali Veli", "email": "ali@example.com.tr", "company": "Acme"}}',
      prompt: 'Create a contact for this customer.',
    });
    expect(calls).toEqual([{ tool: 'contacts__create', input: { name: 'Ali Veli', email: 'ali@example.com.tr', company: 'Acme' } }]);
  });

  it('builds ISO date-times and titles for calendar tools', async () => {
    const { calls, tools } = recordingTools();
    await generateText({
      model: createOfflineModel(),
      tools,
      stopWhen: stepCountIs(5),
      prompt: 'Book a meeting "Kickoff" with jane@example.com on 2025-03-14 at 15:30.',
    });
    expect(calls).toEqual([{ tool: 'calendar__create_event', input: { title: 'Kickoff', start: '2025-03-14T15:30:00Z', attendee_email: 'jane@example.com' } }]);
  });

  it('asks for a required value it cannot find instead of calling the tool', async () => {
    const { calls, tools } = recordingTools();
    const result = await generateText({ model: createOfflineModel(), tools, stopWhen: stepCountIs(5), prompt: 'Send an email to Jane.' });
    expect(calls).toEqual([]);
    expect(result.text).toBe('Offline demo model: To use email__send I still need: to.');
  });

  it('reads a plain "to" property as an e-mail address, never as free text', async () => {
    const sent: unknown[] = [];
    const tools = {
      email__send: tool({
        description: 'Send an e-mail',
        inputSchema: z.object({ to: z.string(), body: z.string() }),
        execute: async (input) => {
          sent.push(input);
          return { status: 'sent' };
        },
      }),
    };
    const asked = await generateText({ model: createOfflineModel(), tools, stopWhen: stepCountIs(5), prompt: 'Send an email to Jane.' });
    expect(asked.text).toBe('Offline demo model: To use email__send I still need: to.');
    await generateText({ model: createOfflineModel(), tools, stopWhen: stepCountIs(5), prompt: 'Send an email to jane@example.com about the demo.' });
    expect(sent).toEqual([{ to: 'jane@example.com', body: 'Send an email to jane@example.com about the demo.' }]);
  });

  it('reports a failing tool honestly', async () => {
    const result = await generateText({
      model: createOfflineModel(),
      tools: {
        contacts__create: tool({
          description: 'Create a contact',
          inputSchema: z.object({ email: z.email() }),
          execute: async (): Promise<{ id: string }> => {
            throw new Error('address book is full');
          },
        }),
      },
      stopWhen: stepCountIs(5),
      prompt: 'Add jane@example.com as a new contact.',
    });
    expect(result.text).toBe('Offline demo model: contacts__create failed: address book is full.');
  });

  it('answers without tools when the request matches none, and obeys toolChoice none', async () => {
    const { calls, tools } = recordingTools();
    const unrelated = await generateText({ model: createOfflineModel(), tools, prompt: 'How is the weather today?' });
    expect(unrelated.toolCalls).toEqual([]);
    expect(unrelated.text).toMatch(/^Offline demo model: I read your message \("How is the weather today\?"\)/);
    const refused = await generateText({ model: createOfflineModel(), tools, toolChoice: 'none', prompt: 'Add jane@example.com to contacts.' });
    expect(refused.toolCalls).toEqual([]);
    expect(calls).toEqual([]);
  });

  it('never chooses a tool that changes something on its subject alone; a reading tool it may', async () => {
    const { calls, tools } = recordingTools();
    const summary = await generateText({ model: createOfflineModel(), tools, stopWhen: stepCountIs(5), prompt: 'Summarise the contact.' });
    expect(summary.toolCalls).toEqual([]);
    expect(summary.text).not.toMatch(/contacts__create/);
    await generateText({ model: createOfflineModel(), tools, stopWhen: stepCountIs(5), prompt: 'Which tasks are open?' });
    expect(calls.map((call) => call.tool)).toEqual(['tasks__list']);
  });

  it('calls the forced tool when toolChoice names one', async () => {
    const { calls, tools } = recordingTools();
    await generateText({
      model: createOfflineModel(),
      tools,
      toolChoice: { type: 'tool', toolName: 'tasks__list' },
      prompt: 'Anything on my plate?',
    });
    expect(calls).toEqual([{ tool: 'tasks__list', input: {} }]);
  });

  it('streams the same turns: tool-call parts, then the answer in several word deltas', async () => {
    const { calls, tools } = recordingTools();
    const prompt = 'Please add Jane Doe (jane.doe@example.com) to my contacts.';
    const streamed = streamText({ model: createOfflineModel(), tools, stopWhen: stepCountIs(5), prompt });
    const kinds: string[] = [];
    const deltas: string[] = [];
    for await (const part of streamed.fullStream) {
      kinds.push(part.type);
      if (part.type === 'text-delta') deltas.push(part.text);
    }
    const generated = await generateText({ model: createOfflineModel(), tools, stopWhen: stepCountIs(5), prompt });
    expect(kinds).toContain('tool-call');
    expect(kinds).toContain('tool-result');
    expect(kinds.indexOf('tool-call')).toBeLessThan(kinds.indexOf('text-delta'));
    expect(deltas.length).toBeGreaterThan(3);
    expect(deltas.join('')).toBe(generated.text);
    expect(await streamed.text).toBe(generated.text);
    expect(await streamed.totalUsage).toEqual(generated.totalUsage);
    expect(calls).toHaveLength(2);
  });
});
