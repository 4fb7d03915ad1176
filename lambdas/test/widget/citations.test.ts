import { describe, expect, it } from 'vitest';
import { citationMarker, withCitations } from '../../src/surfaces/widget/citations';

// The widget cites knowledge passages with spec 1 markers: a page of the visitor's site as Page, any other as Link.

describe('widget citations', () => {
  const site = 'https://shop.example';

  it('cites a page of the site the visitor is on as a Page marker with its path and anchor, others as Link', () => {
    expect(citationMarker({ title: 'Pricing', url: 'https://shop.example/plans?x=1#pricing' }, site)).toBe('[Page:Pricing|/plans?x=1#pricing]');
    expect(citationMarker({ title: 'Getting started', url: 'https://docs.shop.example/start' }, site)).toBe('[Link:Getting started|https://docs.shop.example/start]');
    expect(citationMarker({ title: 'Pricing', url: 'https://shop.example/#pricing' }, undefined)).toBe('[Link:Pricing|https://shop.example/#pricing]');
  });

  it('keeps a title from breaking the marker, and gives no marker to a passage without a web address', () => {
    expect(citationMarker({ title: 'Plans [new] | FAQ\n2026', url: 'https://shop.example/faq' }, site)).toBe('[Page:Plans new FAQ 2026|/faq]');
    expect(citationMarker({ title: 'Refunds', url: null }, site)).toBeUndefined();
    expect(citationMarker({ title: 'Script', url: 'javascript:alert(1)' }, site)).toBeUndefined();
  });

  it('adds each passage its marker for the page the visitor is on', () => {
    const result = { results: [{ title: 'Pricing', url: 'https://shop.example/#pricing', text: '€19' }, { title: 'Answer', url: null, text: 'Yes' }], message: '2 passages found' };
    expect(withCitations(result, 'https://shop.example/en/home')).toEqual({
      results: [{ title: 'Pricing', url: 'https://shop.example/#pricing', text: '€19', cite: '[Page:Pricing|/#pricing]' }, { title: 'Answer', url: null, text: 'Yes' }],
      message: '2 passages found',
    });
  });
});
