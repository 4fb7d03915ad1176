import { createHash } from 'node:crypto';
import { startLoopbackServer, type LoopbackServer } from './loopback-server';

/**
 * A small help-center site served on 127.0.0.1, whose pages a test may change, add or remove between syncs. Pages are
 * served with an ETag (their hash) and answer 304 to a matching If-None-Match, as real sites do; every request is
 * recorded with whether it was conditional.
 */
export interface DocsSite {
  url: string;
  server: LoopbackServer;
  pages: Map<string, { title: string; body: string }>;
  /** Requests of pages that came back 200 (their content sent), by path. */
  fullFetches: string[];
  /** Pages that answer 503 for now (a site under load), by path. */
  unavailable: Set<string>;
  close(): Promise<void>;
}

const html = (title: string, body: string, links: string[]) =>
  `<!doctype html><html lang="en"><head><title>${title}</title></head><body><nav><a href="/">Home</a></nav><main><h1>${title}</h1>${body}<ul>${links
    .map((link) => `<li><a href="${link}">${link}</a></li>`)
    .join('')}</ul></main><footer>© Example</footer></body></html>`;

/**
 * `homeLinks: false`: the home page links to no other page (the site is found through its sitemap, `/sitemap.xml`,
 * which lists every page in the order of `pages`).
 */
export async function startDocsSite(pages: Record<string, { title: string; body: string }>, options: { homeLinks?: boolean } = {}): Promise<DocsSite> {
  const site = new Map(Object.entries(pages));
  const fullFetches: string[] = [];
  const unavailable = new Set<string>();
  let origin = '';
  const server = await startLoopbackServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://site').pathname;
    if (path === '/robots.txt') {
      response.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\nAllow: /\n');
      return;
    }
    if (path === '/sitemap.xml') {
      const urls = [...site.keys()].map((page) => `<url><loc>${origin}${page}</loc></url>`).join('');
      response
        .writeHead(200, { 'content-type': 'application/xml' })
        .end(`<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${urls}</urlset>`);
      return;
    }
    if (unavailable.has(path)) {
      response.writeHead(503, { 'content-type': 'text/plain', 'retry-after': '1' }).end('busy');
      return;
    }
    const page = site.get(path);
    if (!page) {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    // The home page links to every page, so the crawl finds them all (and a page added later).
    const links = path === '/' ? (options.homeLinks === false ? [] : [...site.keys()].filter((other) => other !== '/')) : ['/'];
    const body = html(page.title, page.body, links);
    const etag = `"${createHash('sha256').update(body).digest('hex').slice(0, 16)}"`;
    if (request.headers['if-none-match'] === etag) {
      response.writeHead(304, { etag }).end();
      return;
    }
    fullFetches.push(path);
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', etag }).end(body);
  });
  origin = `http://127.0.0.1:${server.port}`;
  return { url: `${origin}/`, server, pages: site, fullFetches, unavailable, close: () => server.close() };
}
