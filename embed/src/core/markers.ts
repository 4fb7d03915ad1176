import type { Marker, MarkerType, UiActionName } from './event-bus';

export type RichSegment = { kind: 'text'; text: string } | { kind: 'marker'; marker: Marker };

const MARKER_PATTERN = /\[(Skill|Agent|Page|Link|Action):([^[\]\n]{1,300})\]/g;
const SLUG = /^[\w-]{1,100}$/;
const UI_ACTIONS: readonly string[] = ['pointer', 'highlight', 'scroll'] satisfies UiActionName[];
/** The Action marker's value that offers a person instead of pointing at the page. */
export const HANDOFF_ACTION = 'handoff';

// Control characters (the URL parser silently drops tab, CR and LF: "/\t/evil.example" is "//evil.example").
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/g;
// Bidi overrides and invisible characters: they let a label read "invoice.pdf" while it says something else.
const INVISIBLE = /[\u00ad\u061c\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u206f\ufeff]/g;
const SCHEME = /^[a-z][a-z\d+.-]*:/i;
const PROTOCOLS: readonly string[] = ['http:', 'https:', 'mailto:', 'tel:'];

const pageOrigin = (): string => (typeof location !== 'undefined' && location.origin !== 'null' ? location.origin : 'http://localhost');

/** A label as a visitor should read it: no direction overrides, no invisible characters. */
export const visibleText = (text: string): string => text.replace(INVISIBLE, '').trim();

/**
 * The only link forms ever rendered or navigated to: a path or fragment of this site (returned as `/path?query#hash`,
 * checked by parsing against `origin` and comparing origins) or an absolute http(s), mailto or tel URL (returned as
 * the parser's `href`). Everything else (javascript:, data:, protocol-relative, hidden control characters) is null.
 */
export function safeHref(href: string, origin: string = pageOrigin()): string | null {
  const value = href.replace(CONTROL, '').trim();
  if (value.startsWith('#')) return value;
  let url: URL;
  try {
    url = new URL(value, origin);
  } catch {
    return null;
  }
  if (!PROTOCOLS.includes(url.protocol)) return null;
  if (SCHEME.test(value)) return url.href;
  return value.startsWith('/') && url.origin === origin ? url.pathname + url.search + url.hash : null;
}

function toMarker(type: MarkerType, body: string, raw: string): Marker | null {
  const parts = body.split('|').map((part) => part.trim());
  if (parts.length > 3 || parts.some((part) => part === '')) return null;
  const [first = '', second, extra] = parts;
  const label = visibleText(first);
  const value = second ?? first;
  if (!label) return null;
  switch (type) {
    case 'Skill':
    case 'Agent':
      return SLUG.test(value) ? { type, label, value, raw } : null;
    case 'Page':
    case 'Link': {
      const href = safeHref(value);
      return href ? { type, label, value: href, raw } : null;
    }
    case 'Action':
      // `[Action:Talk to a person|handoff]`: the agent offers a person; every other action points at the page.
      if (value === HANDOFF_ACTION) return extra === undefined ? { type, label, value, raw } : null;
      return UI_ACTIONS.includes(value) && extra ? { type, label, value, extra, raw } : null;
  }
}

/** Split bot text into plain text and marker segments. Text without valid markers comes back as one text segment. */
export function parseRichText(text: string): RichSegment[] {
  const segments: RichSegment[] = [];
  let pending = '';
  let last = 0;
  for (const match of text.matchAll(MARKER_PATTERN)) {
    const marker = toMarker(match[1] as MarkerType, match[2] ?? '', match[0]);
    pending += text.slice(last, match.index);
    last = match.index + match[0].length;
    if (!marker) {
      pending += match[0];
      continue;
    }
    if (pending) segments.push({ kind: 'text', text: pending });
    pending = '';
    segments.push({ kind: 'marker', marker });
  }
  pending += text.slice(last);
  if (pending) segments.push({ kind: 'text', text: pending });
  return segments;
}

export function parseMarkers(text: string): Marker[] {
  return parseRichText(text).flatMap((segment) => (segment.kind === 'marker' ? [segment.marker] : []));
}

export type IconName =
  'calendar' | 'mail' | 'cart' | 'phone' | 'chart' | 'globe' | 'zap' | 'puzzle' | 'bot' | 'file' | 'close' | 'send' | 'chat' | 'trash' | 'stop';

const SKILL_ICONS: [RegExp, IconName][] = [
  [/reservation|calendar/, 'calendar'],
  [/email|mail/, 'mail'],
  [/order|shopping/, 'cart'],
  [/call|phone/, 'phone'],
  [/analytics|report/, 'chart'],
  [/web/, 'globe'],
  [/automation/, 'zap'],
];

/** The skill card icon, chosen by keyword in the skill id (first match in the spec's order wins). */
export function skillIcon(skillId: string): IconName {
  const id = skillId.toLowerCase();
  return SKILL_ICONS.find(([pattern]) => pattern.test(id))?.[1] ?? 'puzzle';
}

/** Where a marker click leads: a navigation target, an external URL, or a UI action. */
export type MarkerIntent = { kind: 'navigate'; href: string } | { kind: 'uiAction'; action: UiActionName; target: string } | { kind: 'handoff' };

export function markerIntent(marker: Marker): MarkerIntent {
  switch (marker.type) {
    case 'Skill':
      return { kind: 'navigate', href: `/skills/${encodeURIComponent(marker.value)}` };
    case 'Agent':
      return { kind: 'navigate', href: `/agents/${encodeURIComponent(marker.value)}` };
    case 'Page':
    case 'Link':
      return { kind: 'navigate', href: marker.value };
    case 'Action':
      if (marker.value === HANDOFF_ACTION) return { kind: 'handoff' };
      return { kind: 'uiAction', action: marker.value as UiActionName, target: marker.extra ?? '' };
  }
}
