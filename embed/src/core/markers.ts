import type { Marker, MarkerType, UiActionName } from './events';

export type RichSegment = { kind: 'text'; text: string } | { kind: 'marker'; marker: Marker };

const MARKER_PATTERN = /\[(Skill|Agent|Page|Link|Action):([^[\]\n]{1,300})\]/g;
const SLUG = /^[\w-]{1,100}$/;
const UI_ACTIONS: readonly string[] = ['pointer', 'highlight', 'scroll'] satisfies UiActionName[];

/**
 * Only these link forms are ever rendered or navigated to: site-relative paths, fragments and http(s)/mailto/tel URLs.
 * Everything else (javascript:, data:, protocol-relative //host, ...) is refused.
 */
export function safeHref(href: string): string | null {
  const value = href.trim();
  if (/^\/(?![/\\])/.test(value) || value.startsWith('#')) return value;
  if (/^(https?:\/\/|mailto:|tel:)[^\s]+$/i.test(value)) return value;
  return null;
}

function toMarker(type: MarkerType, body: string, raw: string): Marker | null {
  const parts = body.split('|').map((part) => part.trim());
  if (parts.length > 3 || parts.some((part) => part === '')) return null;
  const [first = '', second, extra] = parts;
  const label = first;
  const value = second ?? first;
  switch (type) {
    case 'Skill':
    case 'Agent':
      return SLUG.test(value) ? { type, label, value, raw } : null;
    case 'Page':
    case 'Link':
      return safeHref(value) ? { type, label, value, raw } : null;
    case 'Action':
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
  | 'calendar' | 'mail' | 'cart' | 'phone' | 'chart' | 'globe' | 'zap' | 'puzzle'
  | 'bot' | 'file' | 'link' | 'help' | 'close' | 'send' | 'chat' | 'trash' | 'pointer';

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
export type MarkerIntent =
  | { kind: 'navigate'; href: string }
  | { kind: 'uiAction'; action: UiActionName; target: string };

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
      return { kind: 'uiAction', action: marker.value as UiActionName, target: marker.extra ?? '' };
  }
}
