import { generateText, stepCountIs, streamText, tool } from 'ai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createOfflineModel } from '../src';

// The chat-widget behaviour of the offline model (spec 1): rich markers, navigate and ui_action tool calls.

function widgetTools() {
  const requested: Array<{ tool: string; input: unknown }> = [];
  return {
    requested,
    tools: {
      navigate: tool({
        description: 'Ask the host page to navigate',
        inputSchema: z.object({ href: z.string() }),
        execute: async (input) => {
          requested.push({ tool: 'navigate', input });
          return { ok: true };
        },
      }),
      ui_action: tool({
        description: 'Point at, highlight or scroll to an element of the page',
        inputSchema: z.object({ action: z.enum(['pointer', 'highlight', 'scroll']), target: z.string() }),
        execute: async (input) => {
          requested.push({ tool: 'ui_action', input });
          return { ok: true };
        },
      }),
    },
  };
}

describe('offline model: chat widget markers and UI tools', () => {
  it.each([
    ['What does it cost? Show me your plans.', 'en', ['[Page:Pricing|/pricing]', '[Action:Show me|highlight|#pricing]']],
    ['Fiyatlarınız nedir?', 'tr', ['[Page:Fiyatlandırma|/pricing]', '[Action:Göster|highlight|#pricing]']],
    ['Which skills can I install?', 'en', ['[Skill:Calendar booking|calendar_booking]', '[Skill:E-mail|email]', '[Page:All skills|/skills]']],
    ['Where are the API docs?', 'en', ['[Page:Documentation|/docs]', '[Link:REST API reference|/docs/api]']],
    ['Do you support MCP?', 'en', ['[Link:Model Context Protocol|https://modelcontextprotocol.io]']],
    ['Ajanlar ne yapabilir?', 'tr', ['[Agent:Destek ajanı|support]', '[Page:Ajanlar|/agents]']],
  ] as const)('answers %j with markers in its language', async (message, language, markers) => {
    const { text } = await generateText({ model: createOfflineModel(), prompt: message });
    expect(text.startsWith(language === 'tr' ? 'Çevrimdışı demo modeli:' : 'Offline demo model:')).toBe(true);
    for (const marker of markers) expect(text).toContain(marker);
  });

  it('calls navigate with the topic page when the visitor asks to go there, then confirms with a marker', async () => {
    const { requested, tools } = widgetTools();
    const { text } = await generateText({ model: createOfflineModel(), tools, stopWhen: stepCountIs(5), prompt: 'Take me to the pricing page' });
    expect(requested).toEqual([{ tool: 'navigate', input: { href: '/pricing' } }]);
    expect(text).toBe('Offline demo model: I opened /pricing for you. [Page:Pricing|/pricing] [Action:Show me|highlight|#pricing]');
  });

  it('navigates to a path written in the message', async () => {
    const { requested, tools } = widgetTools();
    await generateText({ model: createOfflineModel(), tools, stopWhen: stepCountIs(5), prompt: 'Beni /docs/webhooks sayfasına götür' });
    expect(requested).toEqual([{ tool: 'navigate', input: { href: '/docs/webhooks' } }]);
  });

  it.each([
    ['Show me where the pricing is', { action: 'pointer', target: '#pricing' }],
    ['Please highlight #signup-button', { action: 'highlight', target: '#signup-button' }],
    ['Scroll to "faq"', { action: 'scroll', target: 'faq' }],
    ['Fiyatları göster', { action: 'pointer', target: '#pricing' }],
  ])('calls ui_action for %j', async (message, input) => {
    const { requested, tools } = widgetTools();
    await generateText({ model: createOfflineModel(), tools, stopWhen: stepCountIs(5), prompt: message });
    expect(requested).toEqual([{ tool: 'ui_action', input }]);
  });

  it('does not call widget tools when the visitor only asks a question', async () => {
    const { requested, tools } = widgetTools();
    const { text } = await generateText({ model: createOfflineModel(), tools, stopWhen: stepCountIs(5), prompt: 'How much does the team plan cost?' });
    expect(requested).toEqual([]);
    expect(text).toContain('[Page:Pricing|/pricing]');
  });

  it('streams a marker answer in word deltas of at most two words that join back to the full answer', async () => {
    const deltas: string[] = [];
    const streamed = streamText({ model: createOfflineModel(), prompt: 'Tell me about skills' });
    for await (const delta of streamed.textStream) deltas.push(delta);
    const { text } = await generateText({ model: createOfflineModel(), prompt: 'Tell me about skills' });
    expect(deltas.length).toBeGreaterThan(5);
    expect(deltas.every((delta) => delta.trim().split(/\s+/).length <= 2)).toBe(true);
    expect(deltas.join('')).toBe(text);
    expect(text).toContain('[Skill:Calendar booking|calendar_booking]');
  });
});

describe('offline model: the conversation language', () => {
  it.each([
    ['Was kostet der Pro-Tarif?', 'Offline-Demomodell: Unsere Tarife und Preise stehen auf der Preisseite. [Page:Preise|/pricing]'],
    ['¿Cuánto cuestan los planes?', 'Modelo de demostración sin conexión: Nuestros planes y precios están en la página de precios. [Page:Precios|/pricing]'],
  ])('answers %j in its language', async (message, start) => {
    const { text } = await generateText({ model: createOfflineModel(), prompt: message });
    expect(text.startsWith(start)).toBe(true);
  });

  it('follows the language the system prompt names, even for a message too short to tell', async () => {
    const { text } = await generateText({ model: createOfflineModel(), system: 'Conversation language: de. Reply in German.', prompt: 'ok' });
    expect(text).toMatch(/^Offline-Demomodell: Ich habe Ihre Nachricht gelesen \("ok"\)/);
  });

  it('says so when it cannot write the conversation language, and answers in English', async () => {
    const { text } = await generateText({ model: createOfflineModel(), prompt: "Quels sont vos tarifs, s'il vous plaît ?" });
    expect(text).toMatch(/^Offline demo model: \(I cannot write French, so I answer in English\.\) /);
  });
});
