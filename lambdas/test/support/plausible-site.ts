import { corpusPath } from './corpora';
import { escapeHtml, markdownPages, startMarkdownSite, type MarkdownSite } from './markdown-site';

/**
 * The help center of Plausible Analytics (the Markdown of `../shared/corpora/plausible-docs`, CC BY-SA 4.0, never
 * shipped or copied) built into a website as its docs generator would, the attribution in every page's footer: a real
 * company's content for the bench (bench/answers.ts), which says so and skips itself when the corpus is absent.
 * `npm test` serves the team's own help center instead (help-center/help-center.ts).
 */
export type PlausibleSite = MarkdownSite;

export const PLAUSIBLE_ATTRIBUTION = 'Documentation © Plausible Analytics and the contributors of plausible/docs, licensed under CC BY-SA 4.0.';
const LICENSE_URL = 'https://creativecommons.org/licenses/by-sa/4.0/';

/** The corpus's pages, by slug (`subscription-plans`, `custom-props/introduction`). `only` narrows the site to some of them. */
const plausiblePages = (only?: string[]): Map<string, string> => markdownPages(corpusPath('plausible-docs', 'docs/'), only);

export function startPlausibleSite(options: { only?: string[]; popular?: string[] } = {}): Promise<PlausibleSite> {
  return startMarkdownSite(plausiblePages(options.only), {
    name: 'Plausible docs',
    home: '<h1>Plausible Analytics documentation</h1><p>Plausible is intuitive, lightweight and open source web analytics. No cookies and fully compliant with GDPR, CCPA and PECR.</p><p>Browse the guides in the navigation, or start with <a href="/docs/introduction">the introduction</a>.</p>',
    ...(options.popular ? { popular: options.popular } : {}),
    footer: `<p>${escapeHtml(PLAUSIBLE_ATTRIBUTION)} <a href="${LICENSE_URL}" rel="license">Licence</a> · Source: <a href="https://github.com/plausible/docs">plausible/docs</a>. Served as test content, not a Plausible site.</p>`,
    header: [
      ['Docs', '/docs/introduction'],
      ['Pricing', '/docs/subscription-plans'],
      ['API', '/docs/stats-api'],
    ],
    // The corpus commit's date.
    published: new Date('2026-07-24T00:00:00Z'),
  });
}
