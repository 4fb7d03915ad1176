import { describe, expect, it } from 'vitest';
import { markerIntent, parseMarkers, parseRichText, safeHref, skillIcon } from '../../src/core/markers';
import { parseInline } from '../../src/core/markdown';
import { resolveNavigation } from '../../src/core/navigate';
import { mayNavigateUnasked } from '../../src/widget/reply';
import { resolveLocale, STRINGS } from '../../src/core/locale';

describe('rich markers', () => {
  it('parses the five shapes and the three syntaxes', () => {
    const markers = parseMarkers('[Skill:calendar_booking] [Agent:Sales|sales] [Page:Pricing|/pricing] [Link:Docs|https://x.dev/a] [Action:Show|pointer|#cta]');
    expect(markers.map(({ type, label, value, extra }) => ({ type, label, value, extra }))).toEqual([
      { type: 'Skill', label: 'calendar_booking', value: 'calendar_booking', extra: undefined },
      { type: 'Agent', label: 'Sales', value: 'sales', extra: undefined },
      { type: 'Page', label: 'Pricing', value: '/pricing', extra: undefined },
      { type: 'Link', label: 'Docs', value: 'https://x.dev/a', extra: undefined },
      { type: 'Action', label: 'Show', value: 'pointer', extra: '#cta' },
    ]);
  });

  it('returns text without markers as one plain text segment', () => {
    expect(parseRichText('Just text, [not a marker] and [Foo:bar]')).toEqual([{ kind: 'text', text: 'Just text, [not a marker] and [Foo:bar]' }]);
  });

  it('refuses unsafe links, bad slugs and unknown actions, leaving them as literal text', () => {
    for (const bad of [
      '[Link:x|javascript:alert(1)]',
      '[Page:x|//evil.example]',
      '[Link:x|data:text/html,hi]',
      '[Skill:x|../../etc]',
      '[Action:x|explode|#a]',
      '[Action:x|pointer]',
    ]) {
      expect(parseRichText(`a ${bad} b`)).toEqual([{ kind: 'text', text: `a ${bad} b` }]);
    }
    expect(safeHref(' JavaScript:alert(1)')).toBeNull();
    expect(safeHref('/ok')).toBe('/ok');
  });

  it('checks links after removing control characters, by parsing against the page origin', () => {
    const origin = 'https://site.test';
    for (const sneaky of ['/\t/evil.example/tab', '/\r\n/evil.example', '/\\evil.example', '\u0000//evil.example', 'java\tscript:alert(1)', '//evil.example']) {
      expect(safeHref(sneaky, origin)).toBeNull();
    }
    expect(safeHref('/pri\tcing?a=1#top', origin)).toBe('/pricing?a=1#top');
    expect(safeHref('HTTPS://Example.com/a b', origin)).toBe('https://example.com/a%20b');
    expect(parseMarkers('[Link:x|/\t/evil.example/tab] [Page:y|/\t/evil.example/docs]')).toEqual([]);
    expect(resolveNavigation('/\t/evil.example/docs', 'en', origin)).toBeNull();
  });

  it('strips direction overrides and invisible characters from labels; an invisible label is no marker', () => {
    expect(parseMarkers('[Link:\u202Efdp.exe|https://example.com/x]')[0]?.label).toBe('fdp.exe');
    expect(parseMarkers('[Page:\u200b\u200c\u2060|/pricing]')).toEqual([]);
  });

  it('lets the model navigate without a click only inside the site and never to destructive-looking paths', () => {
    const at = (href: string) => mayNavigateUnasked(href, 'en', 'https://site.test');
    expect(at('/pricing')).toBe(true);
    expect(at('https://site.test/docs')).toBe(true);
    for (const href of ['/en/account/delete', '/logout', '/settings?action=remove', '/x/%64elete', 'https://evil.example/', 'mailto:a@b.test'])
      expect(at(href)).toBe(false);
  });

  it('chooses the skill icon by keyword', () => {
    expect(['hotel_reservation', 'gmail', 'shopping_list', 'call_center', 'weekly_report', 'website', 'automation', 'x'].map(skillIcon)).toEqual([
      'calendar',
      'mail',
      'cart',
      'phone',
      'chart',
      'globe',
      'zap',
      'puzzle',
    ]);
  });

  it('maps clicks to the spec behaviour', () => {
    const [skill, agent, action] = parseMarkers('[Skill:A|crm] [Agent:B|ops-bot] [Action:C|scroll|pricing]');
    expect(markerIntent(skill!)).toEqual({ kind: 'navigate', href: '/skills/crm' });
    expect(markerIntent(agent!)).toEqual({ kind: 'navigate', href: '/agents/ops-bot' });
    expect(markerIntent(action!)).toEqual({ kind: 'uiAction', action: 'scroll', target: 'pricing' });
  });
});

describe('inline markdown subset', () => {
  it('knows bold, italic, code and line breaks; HTML stays text', () => {
    expect(parseInline('**b** *i* `c`\n<b>x</b>')).toEqual([
      { kind: 'strong', text: 'b' },
      { kind: 'text', text: ' ' },
      { kind: 'em', text: 'i' },
      { kind: 'text', text: ' ' },
      { kind: 'code', text: 'c' },
      { kind: 'break' },
      { kind: 'text', text: '<b>x</b>' },
    ]);
  });
});

describe('navigation and locale', () => {
  it('prefixes internal links with the locale and sends other origins to a new tab', () => {
    expect(resolveNavigation('/pricing', 'tr', 'https://site.test')).toEqual({ kind: 'internal', path: '/tr/pricing' });
    expect(resolveNavigation('/en/docs', 'tr', 'https://site.test')).toEqual({ kind: 'internal', path: '/en/docs' });
    expect(resolveNavigation('https://site.test/skills', 'en', 'https://site.test')).toEqual({ kind: 'internal', path: '/en/skills' });
    expect(resolveNavigation('https://other.test/x', 'en', 'https://site.test')).toEqual({ kind: 'external', url: 'https://other.test/x' });
    expect(resolveNavigation('javascript:alert(1)', 'en', 'https://site.test')).toBeNull();
  });

  it('resolves the locale: detectLocale, then the URL, then the API', () => {
    expect(resolveLocale({ detected: 'tr', pathname: '/en/x', apiLocale: 'en' })).toBe('tr');
    expect(resolveLocale({ pathname: '/tr/x', apiLocale: 'en' })).toBe('tr');
    expect(resolveLocale({ pathname: '/shop', apiLocale: 'tr' })).toBe('tr');
    expect(resolveLocale({ detected: 'de', pathname: '/', apiLocale: 'xx' })).toBe('en');
  });

  it('translates every string into Turkish', () => {
    expect(Object.keys(STRINGS.tr).sort()).toEqual(Object.keys(STRINGS.en).sort());
    for (const key of Object.keys(STRINGS.en) as (keyof typeof STRINGS.en)[]) expect(STRINGS.tr[key]).not.toBe(STRINGS.en[key]);
  });
});
