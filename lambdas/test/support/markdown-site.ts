import GithubSlugger from 'github-slugger';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { micromark } from 'micromark';
import { frontmatter, frontmatterHtml } from 'micromark-extension-frontmatter';
import { gfm, gfmHtml } from 'micromark-extension-gfm';

/**
 * A company website built from Markdown pages as a docs generator builds it (site header with navigation, a sidebar,
 * headings with ids, links between pages, front-matter titles, a footer), with `/sitemap.xml` and `/robots.txt`,
 * served on 127.0.0.1 with ETag and Last-Modified and 304 answers to conditional requests. Pages can be changed,
 * deleted and added while it runs. The knowledge tests serve the team's own help center with it
 * (help-center/help-center.ts); the bench serves a real one.
 *
 * Pages live at `/docs/<slug>`. The navigation lists every page, so adding or deleting one changes every page's
 * markup (and ETag) but not its text: a crawler that compares extracted text re-indexes only what really changed.
 * `files` are served as they are (a PDF) at their own path and listed in the sitemap.
 */
export interface MarkdownSite {
  /** `http://127.0.0.1:<port>` */
  origin: string;
  /** The home page, `<origin>/`. */
  url: string;
  sitemapUrl: string;
  /** The current pages' slugs. */
  slugs(): string[];
  pageUrl(slug: string): string;
  /** The page's Markdown as served now (throws for a page that does not exist). */
  markdown(slug: string): string;
  /** Changes a page, or adds it when it does not exist: its ETag and Last-Modified change, it joins the sitemap. */
  setPage(slug: string, markdown: string): void;
  deletePage(slug: string): void;
  /** Every request answered, in order: path and status (200, 304, 404). */
  requests: Array<{ path: string; status: number }>;
  close(): Promise<void>;
}

/** The Markdown files under a folder (`root` ends with `/`), by slug (`billing`, `de/preise`); `only` keeps some of them. */
export function markdownPages(root: string, only?: string[]): Map<string, string> {
  const pages = new Map<string, string>();
  for (const file of readdirSync(root, { recursive: true, encoding: 'utf8' }).sort()) {
    if (!file.endsWith('.md')) continue;
    const slug = file.slice(0, -'.md'.length);
    if (!only || only.includes(slug)) pages.set(slug, readFileSync(`${root}${file}`, 'utf8'));
  }
  return pages;
}

export interface MarkdownSiteOptions {
  /** The site's name, in every page's title and header. */
  name: string;
  /** The home page's article (HTML); `popular` pages are listed after it by title, as a help center's home shows them. */
  home: string;
  popular?: string[];
  /** The footer's HTML (an attribution, a copyright line). */
  footer: string;
  /** The header's navigation: label and path. */
  header: Array<[label: string, path: string]>;
  /** When every page was last modified, until a test changes it. */
  published: Date;
  /** The `lang` of pages whose slug does not start with a language folder (`de/…`). */
  language?: string;
  /** Files served as they are, by path (`/files/price-list.pdf`). */
  files?: Record<string, { type: string; body: Uint8Array }>;
}

interface Page {
  markdown: string;
  modified: Date;
}

interface Rendered {
  html: string;
  etag: string;
}

export async function startMarkdownSite(pagesBySlug: Map<string, string>, options: MarkdownSiteOptions): Promise<MarkdownSite> {
  const pages = new Map<string, Page>([...pagesBySlug].map(([slug, markdown]) => [slug, { markdown, modified: options.published }]));
  const files = options.files ?? {};
  const requests: MarkdownSite['requests'] = [];
  // Each page's article is built once (Markdown to HTML is the slow part) and again only when that page changes.
  const articles = new Map<string, ReturnType<typeof renderMarkdown>>();
  let origin = '';

  const navigation = () =>
    [...pages.keys()]
      .sort()
      .map((slug) => `<li><a href="/docs/${slug}">${escapeHtml(titleOf(slug, pages.get(slug)!.markdown))}</a></li>`)
      .join('');

  const home = () => {
    const popular = (options.popular ?? []).filter((slug) => pages.has(slug));
    const list = popular.map((slug) => `<li><a href="/docs/${slug}">${escapeHtml(titleOf(slug, pages.get(slug)!.markdown))}</a></li>`).join('');
    return popular.length > 0 ? `${options.home}<h2>Popular articles</h2><ul>${list}</ul>` : options.home;
  };

  const article = (slug: string, page: Page) => {
    let built = articles.get(slug);
    if (!built) articles.set(slug, (built = renderMarkdown(slug, page.markdown, origin)));
    return built;
  };

  const languageOf = (slug: string) => /^([a-z]{2})\//.exec(slug)?.[1] ?? options.language ?? 'en';
  const render = (path: string): Rendered | null => {
    const slug = path.startsWith('/docs/') ? path.slice('/docs/'.length) : null;
    const page = slug === null ? null : pages.get(slug);
    let html: string;
    if (path === '/') html = layout(options, { title: options.name, lang: options.language ?? 'en', head: '', navigation: navigation(), article: home() });
    else if (slug && page) html = layout(options, { ...article(slug, page), lang: languageOf(slug), navigation: navigation() });
    else return null;
    return { html, etag: `"${createHash('sha256').update(html).digest('base64url').slice(0, 22)}"` };
  };

  const lastModified = (path: string) => (path === '/' ? options.published : (pages.get(path.slice('/docs/'.length))?.modified ?? options.published));

  const sitemap = () =>
    `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${[
      '/',
      ...[...pages.keys()].map((slug) => `/docs/${slug}`),
      ...Object.keys(files),
    ]
      .map((path) => `  <url><loc>${origin}${path}</loc><lastmod>${lastModified(path).toISOString()}</lastmod></url>`)
      .join('\n')}\n</urlset>\n`;

  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const path = new URL(request.url ?? '/', 'http://site').pathname.replace(/\/$/, '') || '/';
    const answer = (status: number, type: string, body: string | Uint8Array, headers: Record<string, string> = {}) => {
      requests.push({ path, status });
      response.writeHead(status, { 'content-type': type, ...headers });
      response.end(request.method === 'HEAD' ? undefined : body);
    };
    if (path === '/robots.txt') return answer(200, 'text/plain', `User-agent: *\nDisallow: /admin/\n\nSitemap: ${origin}/sitemap.xml\n`);
    if (path === '/sitemap.xml') return answer(200, 'application/xml', sitemap());
    if (path === '/assets/site.css') return answer(200, 'text/css', 'body{font-family:system-ui;margin:0}.layout{display:flex}main{max-width:50rem}');
    const file = files[path];
    if (file) return answer(200, file.type, file.body, { 'last-modified': options.published.toUTCString() });
    const page = render(path);
    if (!page) {
      const missing = {
        title: 'Page not found',
        lang: 'en',
        head: '',
        navigation: navigation(),
        article: '<h1>Page not found</h1><p>We could not find what you were looking for.</p>',
      };
      return answer(404, 'text/html; charset=utf-8', layout(options, missing));
    }
    const modified = lastModified(path);
    const validators = { etag: page.etag, 'last-modified': modified.toUTCString(), 'cache-control': 'no-cache' };
    if (notModified(request, page.etag, modified)) return answer(304, 'text/html; charset=utf-8', '', validators);
    answer(200, 'text/html; charset=utf-8', page.html, validators);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    origin,
    url: `${origin}/`,
    sitemapUrl: `${origin}/sitemap.xml`,
    slugs: () => [...pages.keys()],
    pageUrl: (slug) => `${origin}/docs/${slug}`,
    markdown(slug) {
      const page = pages.get(slug);
      if (!page) throw new Error(`no page ${slug}`);
      return page.markdown;
    },
    setPage(slug, markdown) {
      // Last-Modified has a resolution of a second: a change is always at least a second after what was served.
      const previous = pages.get(slug)?.modified ?? options.published;
      const now = new Date(Math.max(Math.ceil(Date.now() / 1000) * 1000, previous.getTime() + 1000));
      pages.set(slug, { markdown, modified: now });
      articles.delete(slug);
    },
    deletePage(slug) {
      pages.delete(slug);
      articles.delete(slug);
    },
    requests,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** RFC 9110: If-None-Match decides when present; else If-Modified-Since, at the resolution of a second. */
function notModified(request: IncomingMessage, etag: string, modified: Date): boolean {
  const ifNoneMatch = request.headers['if-none-match'];
  if (ifNoneMatch) return ifNoneMatch.split(',').some((tag) => tag.trim() === etag || tag.trim() === '*');
  const since = Date.parse(request.headers['if-modified-since'] ?? '');
  return !Number.isNaN(since) && Math.floor(modified.getTime() / 1000) <= Math.floor(since / 1000);
}

function layout(site: MarkdownSiteOptions, page: { title: string; lang: string; head: string; navigation: string; article: string }): string {
  const header = site.header.map(([label, path]) => `<a href="${path}">${escapeHtml(label)}</a>`).join(' ');
  return `<!doctype html>
<html lang="${page.lang}">
<head>
<meta charset="utf-8">
<title>${escapeHtml(page.title)} | ${escapeHtml(site.name)}</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="stylesheet" href="/assets/site.css">
${page.head}
<script>window.dataLayer = window.dataLayer || []; function track() { dataLayer.push(arguments); }</script>
</head>
<body>
<header class="site-header">
<a class="logo" href="/">${escapeHtml(site.name)}</a>
<nav aria-label="Main">${header} <a href="/admin/">Sign in</a></nav>
</header>
<div class="layout">
<aside class="sidebar"><nav aria-label="Docs"><ul>${page.navigation}</ul></nav></aside>
<main><article>
${page.article}
</article></main>
</div>
<footer class="site-footer">
${site.footer}
</footer>
</body>
</html>
`;
}

export function titleOf(slug: string, markdown: string): string {
  const matter = /^---\n([\s\S]*?)\n---/.exec(markdown)?.[1] ?? '';
  const title = /^title:\s*(.+)$/m
    .exec(matter)?.[1]
    ?.trim()
    .replace(/^(["'])(.*)\1$/, '$2');
  return title || /^#\s+(.+)$/m.exec(markdown)?.[1]?.trim() || slug;
}

/**
 * The page as a docs generator (Docusaurus) builds it: MDX `<head>` blocks moved into the head, module imports
 * dropped, admonitions (`:::tip`) as boxes, the front-matter title as the h1 where the page has none, GitHub-style
 * heading ids (or `{#id}`), links to other pages (`foo.md`) as the site's URLs.
 */
function renderMarkdown(slug: string, source: string, origin: string): { title: string; head: string; article: string } {
  const title = titleOf(slug, source);
  const heads: string[] = [];
  let markdown = source.replace(/^<head>([\s\S]*?)<\/head>\s*$/gm, (_block, inner: string) => {
    heads.push(inner.trim());
    return '';
  });
  markdown = outsideCode(markdown, (line) => {
    if (/^(import|export)\s.+\sfrom\s+['"].+['"];?\s*$/.test(line)) return '';
    const admonition = /^:::(\w+)(?:\[(.*)\]|\s+(.*))?\s*$/.exec(line);
    if (admonition)
      return `\n<div class="admonition admonition-${admonition[1]}"><p class="admonition-title">${escapeHtml(admonition[2] ?? admonition[3] ?? admonition[1]!)}</p>\n`;
    if (/^:::\s*$/.test(line)) return '\n</div>\n';
    return line;
  });
  let html = micromark(markdown, { allowDangerousHtml: true, extensions: [frontmatter(), gfm()], htmlExtensions: [frontmatterHtml(), gfmHtml()] });
  if (!/<h1[\s>]/.test(html)) html = `<h1>${escapeHtml(title)}</h1>\n${html}`;
  const slugger = new GithubSlugger();
  html = html.replace(/<h([1-6])>([\s\S]*?)<\/h\1>/g, (_heading, level: string, inner: string) => {
    const explicit = /\s*\{#([^\s}]+)\}\s*$/.exec(inner);
    const content = explicit ? inner.slice(0, explicit.index) : inner;
    const id =
      explicit?.[1] ??
      slugger.slug(
        decodeHtml(content.replace(/<[^>]*>/g, ''))
          .replace(/\s+/g, ' ')
          .trim(),
      );
    if (explicit) slugger.slug(explicit[1]!);
    return `<h${level} id="${id}">${content}</h${level}>`;
  });
  const pageUrl = `${origin}/docs/${slug}`;
  html = html.replace(/href="([^"]*)"/g, (_attribute, href: string) => `href="${siteHref(decodeHtml(href), pageUrl, origin)}"`);
  return { title, head: heads.join('\n'), article: html };
}

/** A link as the built site has it: `foo.md#x` → `/docs/foo#x`, `/custom-props/x` → `/docs/custom-props/x`; `/files/…` as it is. */
function siteHref(href: string, pageUrl: string, origin: string): string {
  if (/^[a-z][a-z0-9+.-]*:/i.test(href) || href.startsWith('#') || href.startsWith('//') || href.startsWith('/files/')) return escapeHtml(href);
  const url = new URL(href.startsWith('/') && !href.startsWith('/docs/') ? `/docs${href}` : href, pageUrl);
  url.pathname = url.pathname.replace(/\.mdx?$/, '').replace(/\/$/, '') || '/';
  return escapeHtml(url.href.slice(origin.length));
}

/** Applies `edit` to each line outside fenced code blocks. */
function outsideCode(markdown: string, edit: (line: string) => string): string {
  let fence: string | null = null;
  return markdown
    .split('\n')
    .map((line) => {
      const marker = /^\s*(`{3,}|~{3,})/.exec(line)?.[1];
      if (marker && (fence === null || marker.startsWith(fence))) {
        fence = fence === null ? marker : null;
        return line;
      }
      return fence === null ? edit(line) : line;
    })
    .join('\n');
}

export const escapeHtml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const decodeHtml = (text: string) =>
  text
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&amp;/g, '&');
