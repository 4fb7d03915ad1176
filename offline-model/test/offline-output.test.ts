import { generateText, jsonSchema, NoObjectGeneratedError, Output, stepCountIs, streamText, tool } from 'ai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { countTokens, createOfflineModel, detectLanguage } from '../src';

// Structured output, language and usage of the offline model, through generateText/streamText with Output.

describe('offline model: structured output', () => {
  it('fills properties by name from the data context, by meaning from the message, and leaves the rest null', async () => {
    const { output } = await generateText({
      model: createOfflineModel(),
      output: Output.object({
        schema: z.object({
          company: z.string().nullable(),
          contact_email: z.string().nullable().describe('The e-mail address of the person to reach'),
          meeting_date: z.string().nullable(),
          budget: z.number().nullable(),
          industry: z.string().nullable(),
          summary: z.string().describe('One sentence about the request'),
          language: z.string(),
        }),
      }),
      system: 'Context data: {"company": "Acme GmbH", "budget": "25000"}',
      prompt: 'Prepare a lead sheet for jane@acme.example, we meet on 2025-04-02.',
    });
    expect(output).toEqual({
      company: 'Acme GmbH',
      contact_email: 'jane@acme.example',
      meeting_date: '2025-04-02',
      budget: 25000,
      industry: null,
      summary: 'Offline demo model: I read your message ("Prepare a lead sheet for jane@acme.example, we meet on 2025-04-02.").',
      language: 'en',
    });
  });

  it('reads property descriptions when the name says nothing', async () => {
    const { output } = await generateText({
      model: createOfflineModel(),
      output: Output.object({
        schema: jsonSchema<{ who: string | null; reach: string | null }>({
          type: 'object',
          properties: {
            who: { type: ['string', 'null'], description: 'Full name of the person' },
            reach: { type: ['string', 'null'], description: 'Phone number to call back' },
          },
          required: ['who', 'reach'],
        }),
      }),
      prompt: 'Please call back Ayşe Yılmaz on +90 532 123 45 67.',
    });
    expect(output).toEqual({ who: 'Ayşe Yılmaz', reach: '+90 532 123 45 67' });
  });

  it('fills the default envelope: outcome, summary and follow-up in the language of the request', async () => {
    const envelope = z.object({
      result: z.enum(['ok', 'partial', 'needs_input', 'refused', 'failed']),
      summary: z.string(),
      follow_up: z.string().nullable(),
    });
    const tools = {
      email__send: tool({
        description: 'Send an e-mail',
        inputSchema: z.object({ to: z.email(), subject: z.string() }),
        execute: async () => ({ status: 'sent' }),
      }),
    };
    const asked = await generateText({
      model: createOfflineModel(),
      tools,
      stopWhen: stepCountIs(5),
      output: Output.object({ schema: envelope }),
      prompt: 'Lütfen bir e-posta gönder.',
    });
    expect(asked.output).toEqual({
      result: 'needs_input',
      summary: 'Çevrimdışı demo modeli: email__send için hâlâ şunlar gerekli: to.',
      follow_up: 'email__send için hâlâ şunlar gerekli: to.',
    });
    const done = await generateText({
      model: createOfflineModel(),
      tools,
      stopWhen: stepCountIs(5),
      output: Output.object({ schema: envelope }),
      prompt: 'Send an email "Hello" to bob@example.com.',
    });
    expect(done.steps).toHaveLength(2);
    expect(done.output).toEqual({ result: 'ok', summary: 'Offline demo model: I used email__send: status: sent.', follow_up: null });
  });

  it('takes values from tool results of the request', async () => {
    const { output } = await generateText({
      model: createOfflineModel(),
      tools: {
        contacts__create: tool({
          description: 'Create a contact',
          inputSchema: z.object({ email: z.email() }),
          execute: async ({ email }) => ({ contact: { contact_id: 'ct_42', email } }),
        }),
      },
      stopWhen: stepCountIs(5),
      output: Output.object({ schema: z.object({ contact_id: z.string().nullable(), email: z.string().nullable() }) }),
      prompt: 'Add ada@example.com to contacts.',
    });
    expect(output).toEqual({ contact_id: 'ct_42', email: 'ada@example.com' });
  });

  it('leaves a required non-nullable property it cannot know absent, so shaping fails visibly', async () => {
    const attempt = generateText({
      model: createOfflineModel(),
      output: Output.object({ schema: z.object({ invoice_total: z.number() }) }),
      prompt: 'What is the invoice total?',
    });
    const error: unknown = await attempt.catch((thrown: unknown) => thrown);
    expect(NoObjectGeneratedError.isInstance(error)).toBe(true);
    expect((error as NoObjectGeneratedError).text).toBe('{}');
  });

  it('streams JSON that parses to the same object', async () => {
    const schema = z.object({ email: z.string().nullable(), language: z.string() });
    const prompt = 'Merhaba, e-posta adresim ali@example.com.tr';
    const streamed = streamText({ model: createOfflineModel(), output: Output.object({ schema }), prompt });
    const generated = await generateText({ model: createOfflineModel(), output: Output.object({ schema }), prompt });
    expect(await streamed.output).toEqual({ email: 'ali@example.com.tr', language: 'tr' });
    expect(generated.output).toEqual(await streamed.output);
  });
});

describe('offline model: language and usage', () => {
  it('answers Turkish in Turkish and English in English, and English when it cannot tell', async () => {
    expect(await detectLanguage('Fiyatlarınız nedir?')).toBe('tr');
    expect(await detectLanguage('Bana kişileri göster')).toBe('tr');
    expect(await detectLanguage('What are your prices?')).toBe('en');
    expect(await detectLanguage('Please call back Ayşe Yılmaz on Monday')).toBe('en');
    expect(await detectLanguage('')).toBe('en');
  });

  it('answers in the language of the latest user message', async () => {
    const { text } = await generateText({
      model: createOfflineModel(),
      messages: [
        { role: 'user', content: 'Hello there, what can you do?' },
        { role: 'assistant', content: 'Offline demo model: …' },
        { role: 'user', content: 'Peki bu nasıl çalışıyor?' },
      ],
    });
    expect(text).toMatch(/^Çevrimdışı demo modeli: Mesajınızı okudum \("Peki bu nasıl çalışıyor\?"\)/);
  });

  it('reports token usage as one token per four characters read and written', async () => {
    const prompt = 'Hello';
    const { text, usage } = await generateText({ model: createOfflineModel(), prompt });
    expect(usage.inputTokens).toBe(countTokens(prompt));
    expect(usage.outputTokens).toBe(countTokens(text));
    expect(usage.totalTokens).toBe(countTokens(prompt) + countTokens(text));
    const longer = await generateText({ model: createOfflineModel(), prompt: prompt.repeat(20) });
    expect(longer.usage.inputTokens).toBe(25);
  });
});
