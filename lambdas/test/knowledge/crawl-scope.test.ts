import { describe, expect, it } from 'vitest';
import { CrawlError, inScope, normalizeUrl, siteScope } from '../../src/domains/knowledge/crawl';

describe('the scope of a website source', () => {
  it('is the registrable domain by the Public Suffix List, private suffixes included', () => {
    const acme = siteScope('https://www.acme.co.uk/help');
    expect(acme).toEqual({ origin: 'https://www.acme.co.uk', registrableDomain: 'acme.co.uk' });
    expect(inScope(acme, 'http://docs.acme.co.uk:8080/x')).toBe(true);
    expect(inScope(acme, 'https://evil.co.uk/')).toBe(false);
    expect(inScope(acme, 'https://acme.co.uk.evil.example/')).toBe(false);
    const pages = siteScope('https://acme.github.io/');
    expect(inScope(pages, 'https://rival.github.io/')).toBe(false);
    expect(inScope(siteScope('http://127.0.0.1:4000/'), 'http://127.0.0.2:4000/')).toBe(false);
  });

  it('never holds credentials or another scheme, and a start URL that can never be crawled is refused', () => {
    const acme = siteScope('https://acme.com/');
    expect(inScope(acme, 'https://user:secret@acme.com/')).toBe(false);
    expect(inScope(acme, 'ftp://acme.com/file')).toBe(false);
    expect(inScope(acme, 'javascript:alert(1)')).toBe(false);
    for (const start of ['acme.com', 'file:///etc/passwd', 'https://admin:pw@acme.com/']) expect(() => siteScope(start)).toThrow(CrawlError);
  });

  it('spells each page one way', () => {
    expect(normalizeUrl('HTTPS://Acme.COM:443/a/./b/../c?z=1&utm_source=x&a=2#top')).toBe('https://acme.com/a/c?a=2&z=1');
    expect(normalizeUrl('/pricing?fbclid=abc', 'https://acme.com/x')).toBe('https://acme.com/pricing');
    expect(normalizeUrl('mailto:sales@acme.com')).toBeNull();
  });
});
