import { describe, expect, it } from 'vitest';
import { answerFilter, citationBook, citationMarker, passageUrls, renderCitedAnswer, type CitationDoor } from '../../src/domains/runs/runtime/cited-answer';
import { linkPolicy } from '../../src/domains/runs/runtime/link-policy';

// Citations the platform checks (issue 40): the model reads numbered passages and cites them by number; each door's
// citation is written by the platform, a number no passage has is dropped, a link nothing retrieved is removed.

const site = 'https://shop.example';
const passage = (n: number, url: string | null, title = `Page ${n}`) => ({
  document_id: `doc_${n}`,
  name: `page-${n}`,
  url,
  title,
  text: `Passage ${n} text.`,
  score: 1,
});
const PASSAGES = [
  passage(1, 'https://shop.example/pricing#plans', 'Pricing'),
  passage(2, 'https://docs.partner.example/start', 'Getting started'),
  passage(3, null, 'Do you ship abroad?'),
];

function searched() {
  const book = citationBook();
  const seen = book.numbered({ results: PASSAGES, message: '3 passages found' }) as { results: Array<{ number: number }> };
  return { book, seen, policy: linkPolicy(passageUrls(book), [site]) };
}

const WIDGET: CitationDoor = { kind: 'widget', siteOrigin: site };

describe('the widget marker of a passage', () => {
  it('cites a page of the site the visitor is on as a Page marker with its path and anchor, others as Link', () => {
    expect(citationMarker({ title: 'Pricing', url: 'https://shop.example/plans?x=1#pricing' }, site)).toBe('[Page:Pricing|/plans?x=1#pricing]');
    expect(citationMarker({ title: 'Getting started', url: 'https://docs.shop.example/start' }, site)).toBe(
      '[Link:Getting started|https://docs.shop.example/start]',
    );
    expect(citationMarker({ title: 'Pricing', url: 'https://shop.example/#pricing' }, undefined)).toBe('[Link:Pricing|https://shop.example/#pricing]');
  });

  it('keeps a title from breaking the marker, and gives no marker to a passage without a web address', () => {
    expect(citationMarker({ title: 'Plans [new] | FAQ\n2026', url: 'https://shop.example/faq' }, site)).toBe('[Page:Plans new FAQ 2026|/faq]');
    expect(citationMarker({ title: 'Refunds', url: null }, site)).toBeUndefined();
    expect(citationMarker({ title: 'Script', url: 'javascript:alert(1)' }, site)).toBeUndefined();
  });
});

describe('citing by number', () => {
  it('numbers the passages the model reads, a passage read again keeping its number', () => {
    const { book, seen } = searched();
    expect(seen.results.map((result) => result.number)).toEqual([1, 2, 3]);
    const again = book.numbered({ results: [PASSAGES[1], passage(4, 'https://shop.example/refunds')] }) as { results: Array<{ number: number }> };
    expect(again.results.map((result) => result.number)).toEqual([2, 4]);
  });

  it('writes the widget marker of each cited passage once, drops a number no passage has, and lists only what was cited', () => {
    const { book, policy } = searched();
    const answer = renderCitedAnswer('Starter costs €19 [1]. It is billed monthly [1][7]. We ship abroad [3].', book, policy, WIDGET);
    expect(answer.text).toBe('Starter costs €19 [Page:Pricing|/pricing#plans]. It is billed monthly. We ship abroad.');
    expect(answer.sources.map((source) => source.document_id)).toEqual(['doc_1', 'doc_3']);
  });

  it('keeps the numbers in a plain answer, with the cited passages and their links under it', () => {
    const { book, policy } = searched();
    const answer = renderCitedAnswer('See the guide [2, 9].', book, policy, { kind: 'plain' });
    expect(answer.text).toBe('See the guide [2].\n\nSources:\n[2] Getting started: https://docs.partner.example/start');
  });

  it('gives an answer that cites nothing, or says it does not know, no source', () => {
    const { book, policy } = searched();
    expect(renderCitedAnswer('Starter costs €19.', book, policy, WIDGET).sources).toEqual([]);
    expect(renderCitedAnswer('I do not know [1].', book, policy, { kind: 'plain' })).toMatchObject({ sources: [], text: 'I do not know [1].' });
  });
});

describe('links', () => {
  it('keeps links to retrieved passages (with or without their anchor) and to the own site, and removes every other', () => {
    const { book, policy } = searched();
    const answer = renderCitedAnswer(
      'Plans: https://shop.example/pricing. Guide: https://docs.partner.example/start#intro. Log in at https://evil.example/login, or [here](http://evil.example/x) ' +
        'or [Link:Sign in|https://evil.example/y] or www.evil.example. Contact: [Page:Contact|/contact], not [Page:Away|//evil.example/z] nor [Page:Tab|/\t/evil.example/t].',
      book,
      policy,
      WIDGET,
    );
    expect(answer.text).toBe(
      'Plans: https://shop.example/pricing. Guide: https://docs.partner.example/start#intro. Log in at , or here or Sign in or . Contact: [Page:Contact|/contact], not Away nor Tab.',
    );
    expect(answer.removed.map((link) => link.url)).toEqual([
      'https://evil.example/login',
      'http://evil.example/x',
      'https://evil.example/y',
      'www.evil.example',
      '//evil.example/z',
      '/\t/evil.example/t',
    ]);
  });

  it('streams the same text however the model cuts it, never showing a link before it is checked', () => {
    const text = 'Our plans [1] are here: [Plans](https://evil.example/p) and https://evil.example/q, the guide [2].';
    const whole = renderCitedAnswer(text, searched().book, searched().policy, WIDGET).text;
    for (const size of [1, 2, 3, 5, 8, 13]) {
      const { book, policy } = searched();
      const filter = answerFilter(book, policy, WIDGET);
      let shown = '';
      for (let at = 0; at < text.length; at += size) {
        shown += filter.push(text.slice(at, at + size));
        expect(shown).not.toContain('evil');
      }
      expect(`${shown}${filter.end()}`.trim()).toBe(whole);
    }
  });
});
