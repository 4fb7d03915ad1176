/** The small inline markdown subset bot text may use. Anything else stays literal text; nothing becomes raw HTML. */
export type InlineToken = { kind: 'text'; text: string } | { kind: 'strong' | 'em' | 'code'; text: string } | { kind: 'break' };

const INLINE = /\*\*([^*\n]+)\*\*|`([^`\n]+)`|\*([^*\n]+)\*|(\n)/g;

export function parseInline(text: string): InlineToken[] {
  const tokens: InlineToken[] = [];
  let last = 0;
  for (const match of text.matchAll(INLINE)) {
    if (match.index > last) tokens.push({ kind: 'text', text: text.slice(last, match.index) });
    last = match.index + match[0].length;
    if (match[1] !== undefined) tokens.push({ kind: 'strong', text: match[1] });
    else if (match[2] !== undefined) tokens.push({ kind: 'code', text: match[2] });
    else if (match[3] !== undefined) tokens.push({ kind: 'em', text: match[3] });
    else tokens.push({ kind: 'break' });
  }
  if (last < text.length) tokens.push({ kind: 'text', text: text.slice(last) });
  return tokens;
}
