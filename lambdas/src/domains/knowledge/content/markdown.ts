import type { Nodes, Root } from 'mdast';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { frontmatterFromMarkdown } from 'mdast-util-frontmatter';
import { gfmFromMarkdown } from 'mdast-util-gfm';
import { frontmatter } from 'micromark-extension-frontmatter';
import { gfm } from 'micromark-extension-gfm';
import { appendHtmlFragment } from './html';
import { collapse, SectionCollector, SECTION_HEADING_LEVELS } from './sections';
import type { ExtractedDocument } from './types';

const MATTER = ['yaml', 'toml'] as const;
/** Front matter: YAML (`---`) or TOML (`+++`, Hugo's). */
const isMatter = (node: { type: string }) => (MATTER as readonly string[]).includes(node.type);

/**
 * A Markdown document (CommonMark with GitHub's tables, as help centers write it) as sections. Front matter is
 * dropped (its `title` becomes the title); raw HTML blocks are read as HTML text; the lines of a docs generator's
 * module imports and admonition fences (`import X from '…'`, `:::tip`) are not content and are dropped.
 */
export function extractMarkdown(markdown: string, options: { name?: string }): ExtractedDocument {
  const tree = fromMarkdown(markdown, {
    extensions: [frontmatter([...MATTER]), gfm()],
    mdastExtensions: [frontmatterFromMarkdown([...MATTER]), gfmFromMarkdown()],
  });
  const collector = new SectionCollector();
  let firstH1 = '';
  for (const node of tree.children) {
    if (isMatter(node)) continue;
    if (node.type === 'html') {
      appendHtmlFragment(collector, node.value);
      continue;
    }
    if (node.type === 'heading' && node.depth <= SECTION_HEADING_LEVELS) {
      const { text, id } = headingParts(plainText(node));
      if (node.depth === 1 && !firstH1) firstH1 = text;
      collector.heading(node.depth, text, id);
      continue;
    }
    const text = plainText(node);
    collector.text(`\n${node.type === 'paragraph' ? withoutGeneratorLines(text) : text}\n`);
  }
  return { title: frontMatterTitle(tree) || firstH1 || options.name || '', sections: collector.finish(), links: [] };
}

/** `## Google Tag Manager {#gtm}`: the explicit heading id of Docusaurus, Hugo and kramdown. */
function headingParts(raw: string): { text: string; id: string | null } {
  const explicit = /\s*\{#([^\s}]+)\}\s*$/.exec(raw);
  return explicit ? { text: collapse(raw.slice(0, explicit.index)), id: explicit[1]! } : { text: collapse(raw), id: null };
}

function frontMatterTitle(tree: Root): string {
  const matter = tree.children.find(isMatter);
  const line = matter && 'value' in matter ? /^title\s*[:=]\s*(.+)$/m.exec(matter.value)?.[1] : undefined;
  return line ? collapse(line.replace(/^(["'])(.*)\1$/, '$2')) : '';
}

const GENERATOR_LINE = /^\s*(?:(?:import|export)\s.+\sfrom\s+['"].+['"];?|:::.*)\s*$/;
const withoutGeneratorLines = (text: string) =>
  text
    .split('\n')
    .filter((line) => !GENERATOR_LINE.test(line))
    .join('\n');

const BLOCK_TYPES = new Set(['paragraph', 'heading', 'blockquote', 'list', 'listItem', 'table', 'tableRow', 'footnoteDefinition']);

/** The text of a Markdown node, one line per block; inline HTML tags and images' URLs are not text. */
function plainText(node: Nodes): string {
  switch (node.type) {
    case 'text':
    case 'inlineCode':
      return node.value;
    case 'code':
      return `\n${node.value}\n`;
    case 'break':
    case 'thematicBreak':
      return '\n';
    case 'image':
    case 'imageReference':
      return node.alt ?? '';
    case 'html':
    case 'yaml':
    case 'definition':
      return '';
    case 'tableCell':
      return `${node.children.map(plainText).join('')} `;
    default: {
      if (!('children' in node)) return '';
      const inner = (node.children as Nodes[]).map(plainText).join('');
      return BLOCK_TYPES.has(node.type) ? `${inner}\n` : inner;
    }
  }
}
