import { DomHandler, type AnyNode, type Document, type Element } from 'domhandler';
import { Parser } from 'htmlparser2';
import { collapse, SectionCollector, SECTION_HEADING_LEVELS } from './sections';
import { ContentError, CONTENT_LIMITS, type ExtractedDocument } from './types';

/**
 * A web page's main content as sections. The page is parsed, never rendered: no script runs, nothing is fetched. What
 * is not the page's own content is dropped: scripts, styles, forms, navigation, the site's header and footer, asides,
 * hidden elements. Links are read from the whole page (the navigation is how a crawler finds the other pages).
 */
export function extractHtml(html: string, options: { url?: string; name?: string }): ExtractedDocument {
  const dom = parseBounded(html);
  const title =
    collapse(textOf(findFirst(dom, (element) => element.name === 'title'))) ||
    collapse(textOf(findFirst(dom, (element) => element.name === 'h1'))) ||
    options.name ||
    options.url ||
    '';
  const collector = new SectionCollector();
  walk(mainContent(dom), collector);
  return { title, sections: collector.finish(), links: options.url ? linksOf(dom, options.url) : [] };
}

/** Never content: code, styling, controls, embedded objects, and the landmarks of a site's frame. */
const DROPPED = new Set([
  'head',
  'script',
  'style',
  'noscript',
  'template',
  'nav',
  'aside',
  'form',
  'button',
  'select',
  'textarea',
  'input',
  'svg',
  'canvas',
  'iframe',
  'object',
  'embed',
  'dialog',
]);
const FRAME_ROLES = new Set(['navigation', 'banner', 'contentinfo', 'complementary', 'search', 'dialog', 'menu', 'menubar']);
/** Header and footer are the site's frame unless they belong to an article or section (an article's byline). */
const FRAME_UNLESS_IN_CONTENT = new Set(['header', 'footer']);
const CONTENT_CONTAINERS = new Set(['article', 'section']);
const BLOCKS = new Set([
  'p',
  'div',
  'section',
  'article',
  'main',
  'ul',
  'ol',
  'li',
  'dl',
  'dt',
  'dd',
  'table',
  'thead',
  'tbody',
  'tfoot',
  'tr',
  'caption',
  'blockquote',
  'figure',
  'figcaption',
  'address',
  'details',
  'summary',
  'h5',
  'h6',
  'header',
  'footer',
  'hr',
  'br',
]);
const CELLS = new Set(['td', 'th']);

const isElement = (node: AnyNode | null | undefined): node is Element => node?.type === 'tag' || node?.type === 'script' || node?.type === 'style';
const headingLevel = (element: Element) => (/^h[1-6]$/.test(element.name) ? Number(element.name[1]) : 0);

/**
 * The nodes under `root` in document order. Every traversal here is iterative, with an explicit stack: a page nested a
 * hundred thousand levels deep cannot overflow the call stack (the recursive helpers of domutils do).
 */
function* descendants(root: AnyNode): Generator<AnyNode> {
  const stack: AnyNode[] = 'children' in root ? [...root.children].reverse() : [];
  while (stack.length > 0) {
    const node = stack.pop()!;
    yield node;
    if ('children' in node) for (let index = node.children.length - 1; index >= 0; index--) stack.push(node.children[index]!);
  }
}

function findFirst(root: AnyNode, test: (element: Element) => boolean): Element | undefined {
  for (const node of descendants(root)) if (isElement(node) && test(node)) return node;
  return undefined;
}

function textOf(node: AnyNode | undefined): string {
  if (!node) return '';
  let text = '';
  for (const inner of descendants(node)) if (inner.type === 'text') text += inner.data;
  return text;
}

/** `<main>` (or `role="main"`) where the page marks it; else its one `<article>`; else the body. */
function mainContent(dom: Document): AnyNode {
  const main = findFirst(dom, (element) => element.name === 'main' || element.attribs.role === 'main');
  if (main) return main;
  const articles = [...descendants(dom)].filter((node) => isElement(node) && node.name === 'article');
  if (articles.length === 1) return articles[0]!;
  return findFirst(dom, (element) => element.name === 'body') ?? dom;
}

/**
 * A list that is links and little else (a home page's "popular articles", a "see also", a table of contents) is
 * navigation, even inside the main content: its words are the titles of other pages, and kept as this page's text they
 * would make a short page of links outrank the pages it links to (readability's link density, on lists).
 */
const LINK_LISTS = new Set(['ul', 'ol', 'menu', 'dl']);
const MIN_LINKS_IN_LINK_LIST = 3;
const LINK_LIST_DENSITY = 0.8;

function isLinkList(element: Element): boolean {
  if (!LINK_LISTS.has(element.name)) return false;
  let links = 0;
  let linkChars = 0;
  for (const node of descendants(element)) {
    if (isElement(node) && node.name === 'a' && node.attribs.href !== undefined) {
      links += 1;
      linkChars += collapse(textOf(node)).length;
    }
  }
  return links >= MIN_LINKS_IN_LINK_LIST && linkChars >= LINK_LIST_DENSITY * collapse(textOf(element)).length;
}

function isDropped(element: Element): boolean {
  if (DROPPED.has(element.name) || isLinkList(element)) return true;
  const { role, hidden, style } = element.attribs;
  if (hidden !== undefined || element.attribs['aria-hidden'] === 'true') return true;
  if (role && FRAME_ROLES.has(role)) return true;
  if (style && /display\s*:\s*none|visibility\s*:\s*hidden/i.test(style)) return true;
  if (!FRAME_UNLESS_IN_CONTENT.has(element.name)) return false;
  for (let parent = element.parent; parent && isElement(parent); parent = parent.parent) if (CONTENT_CONTAINERS.has(parent.name)) return false;
  return true;
}

/** The heading's own id, or that of an anchor inside it (`<h2><a id="x"></a>Title</h2>`, a common pattern). */
function headingId(heading: Element): string | null {
  const anchor = findFirst(heading, (element) => element.name === 'a' && Boolean(element.attribs.id || element.attribs.name));
  const id = heading.attribs.id || anchor?.attribs.id || anchor?.attribs.name;
  return id?.trim() || null;
}

/** An HTML fragment inside another format (a Markdown document's raw HTML block): its text, frame and scripts dropped. */
export function appendHtmlFragment(collector: SectionCollector, html: string): void {
  walk(parseBounded(html), collector);
}

/** Real pages nest a few dozen elements deep; past this a page is refused before the parser's cost grows with it. */
const MAX_NESTING = 2_000;

/** htmlparser2's open-element stack costs time in proportion to its depth on every tag: the depth is bounded. */
class BoundedDomHandler extends DomHandler {
  private depth = 0;

  override onopentag(name: string, attribs: Record<string, string>): void {
    this.depth += 1;
    if (this.depth > MAX_NESTING) throw new ContentError('malformed', `the page nests elements more than ${MAX_NESTING.toLocaleString('en')} deep`);
    super.onopentag(name, attribs);
  }

  override onclosetag(): void {
    this.depth -= 1;
    super.onclosetag();
  }
}

function parseBounded(html: string): Document {
  const handler = new BoundedDomHandler();
  new Parser(handler).end(html);
  return handler.root;
}

type Step = AnyNode | { after: string };

/** The text in reading order into the collector (iterative, as `descendants`), the dropped elements skipped whole. */
function walk(root: AnyNode, collector: SectionCollector): void {
  const stack: Step[] = [root];
  while (stack.length > 0) {
    const step = stack.pop()!;
    if ('after' in step) {
      collector.text(step.after);
      continue;
    }
    if (step.type === 'text') {
      collector.text(step.data.replace(/\s+/g, ' '));
      continue;
    }
    if (!isElement(step) && step.type !== 'root') continue; // comments, processing instructions, CDATA
    if (isElement(step)) {
      if (isDropped(step)) continue;
      const level = headingLevel(step);
      if (level >= 1 && level <= SECTION_HEADING_LEVELS) {
        collector.heading(level, textOf(step), headingId(step));
        continue;
      }
      if (step.name === 'pre') {
        collector.text(`\n${textOf(step)}\n`);
        continue;
      }
      if (BLOCKS.has(step.name)) {
        collector.text('\n');
        stack.push({ after: '\n' });
      } else if (CELLS.has(step.name)) stack.push({ after: ' ' });
    }
    for (let index = step.children.length - 1; index >= 0; index--) stack.push(step.children[index]!);
  }
}

/** The page's links as absolute http(s) URLs against its base, fragment stripped, each once. */
function linksOf(dom: Document, pageUrl: string): string[] {
  const baseHref = findFirst(dom, (element) => element.name === 'base')?.attribs.href;
  const base = resolve(baseHref ?? '', pageUrl) ?? pageUrl;
  const links = new Set<string>();
  for (const node of descendants(dom)) {
    const href = isElement(node) && (node.name === 'a' || node.name === 'area') ? node.attribs.href : undefined;
    const url = href === undefined ? null : resolve(href, base);
    if (!url || (url.startsWith('https:') === false && url.startsWith('http:') === false)) continue;
    links.add(url);
    if (links.size >= CONTENT_LIMITS.maxLinks) break;
  }
  return [...links];
}

function resolve(href: string, base: string): string | null {
  try {
    const url = new URL(href.trim(), base);
    url.hash = '';
    return url.href;
  } catch {
    return null;
  }
}
