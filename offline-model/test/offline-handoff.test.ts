import { generateText, stepCountIs, tool } from 'ai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createOfflineModel } from '../src';

// The widget's `handoff` tool (issue 29): the offline model passes the conversation to a person when the visitor asks
// for one in plain words, in the languages it writes, and never for a question that only mentions people.

function handoffTools() {
  const summaries: string[] = [];
  return {
    summaries,
    tools: {
      handoff: tool({
        description: 'Pass the conversation to a person of the team',
        inputSchema: z.object({ summary: z.string() }),
        execute: async ({ summary }) => {
          summaries.push(summary);
          return { handed_off: true };
        },
      }),
    },
  };
}

describe('offline model: handing off to a person', () => {
  it.each([
    ['I want to talk to a human', 'I have asked a person from our team to join'],
    ['Can I speak to a real person please?', 'I have asked a person from our team to join'],
    ['Bir insanla konuşmak istiyorum', 'Ekibimizden birinin katılmasını istedim'],
    ['Ich möchte mit einem Menschen sprechen', 'Ich habe eine Person aus unserem Team gebeten'],
    ['Quiero hablar con una persona', 'He pedido a una persona de nuestro equipo'],
  ])('calls handoff for %j with the visitor’s words as the summary, then says a person will answer', async (message, reply) => {
    const { summaries, tools } = handoffTools();
    const { text } = await generateText({ model: createOfflineModel(), tools, stopWhen: stepCountIs(3), prompt: message });
    expect(summaries).toEqual([`The visitor asked for a person: "${message}"`]);
    expect(text).toContain(reply);
  });

  it.each(['Are you human?', 'What does it cost?', 'How many people work at the company?'])('does not hand off for %j', async (message) => {
    const { summaries, tools } = handoffTools();
    await generateText({ model: createOfflineModel(), tools, stopWhen: stepCountIs(3), prompt: message });
    expect(summaries).toEqual([]);
  });

  it('without the tool offered, a request for a human gets the contact page as before', async () => {
    const { text } = await generateText({ model: createOfflineModel(), prompt: 'I want to talk to a human' });
    expect(text).toContain('[Page:Contact|/contact]');
  });
});
