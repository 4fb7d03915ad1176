import { describe, expect, it } from 'vitest';
import { LIVE_LIMITS, previewLine } from '../src/live-conversation';

// The inbox list's preview of a message: its first line as plain, visible text of bounded length.
describe('previewLine', () => {
  it('takes the first line that says something, spaces collapsed', () => {
    expect(previewLine('\n \n  Where is   my\torder?\r\nSecond line')).toBe('Where is my order?');
    expect(previewLine(' \n\t')).toBe('');
  });

  it('shows the agent’s markers as their labels, markup as text', () => {
    expect(previewLine('See [Page:Pricing|/pricing] or [Action:Talk to a person|handoff] <b>now</b>')).toBe('See Pricing or Talk to a person <b>now</b>');
  });

  it('drops control, bidi and invisible characters', () => {
    expect(previewLine('in\u202evoice\u200b.pdf\u0007 \ufeffok')).toBe('invoice.pdf ok');
  });

  it(`cuts at ${LIVE_LIMITS.previewChars} characters, counting characters, not UTF-16 units`, () => {
    const cut = previewLine('😀'.repeat(500));
    expect([...cut]).toHaveLength(LIVE_LIMITS.previewChars);
    expect(cut.endsWith('…')).toBe(true);
    expect(previewLine('a'.repeat(LIVE_LIMITS.previewChars))).toBe('a'.repeat(LIVE_LIMITS.previewChars));
  });
});
