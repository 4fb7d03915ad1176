import { describe, expect, it } from 'vitest';
import { normalizeLanguage } from '../src/language';

describe('normalizeLanguage', () => {
  it('canonicalizes header values, the same on every call', () => {
    for (let call = 0; call < 2; call++) {
      expect(normalizeLanguage('pt_br', 'en')).toBe('pt-BR');
      expect(normalizeLanguage('TR', 'en')).toBe('tr');
      expect(normalizeLanguage('en-US,en;q=0.9', 'de')).toBe('en-US');
    }
  });

  it("gives each caller's own fallback for a value it cannot use, however often it is sent", () => {
    for (const fallback of ['en', 'de', 'en']) {
      expect(normalizeLanguage('not a language', fallback)).toBe(fallback);
      expect(normalizeLanguage('', fallback)).toBe(fallback);
      expect(normalizeLanguage(null, fallback)).toBe(fallback);
    }
  });

  it('stays right past the number of values it remembers', () => {
    for (let index = 0; index < 600; index++) expect(normalizeLanguage(`DE-x-p${index}`, 'en')).toBe(`de-x-p${index}`);
    expect(normalizeLanguage('DE-x-p0', 'en')).toBe('de-x-p0');
  });
});
