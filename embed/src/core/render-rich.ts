import { cardIcon } from './card-icons';
import { renderShapes } from './icons';
import type { CreateElement } from './create-element';
import { parseInline } from './markdown';
import { parseRichText, safeHref, skillIcon } from './markers';
import type { IconName, RichSegment } from './markers';
import type { Marker } from './event-bus';

export interface RichHandlers {
  onMarker(marker: Marker, event: Event): void;
}

function renderInline<Node>(h: CreateElement<Node>, text: string, keyPrefix: string): (Node | string)[] {
  return parseInline(text).map((token, index) => {
    const key = `${keyPrefix}.${index}`;
    switch (token.kind) {
      case 'text':
        return token.text;
      case 'break':
        return h('br', { key });
      case 'strong':
        return h('strong', { key }, token.text);
      case 'em':
        return h('em', { key }, token.text);
      case 'code':
        return h('code', { key }, token.text);
    }
  });
}

const CARD: Record<'Skill' | 'Agent' | 'Page', string> = { Skill: 'scw-card-skill', Agent: 'scw-card-agent', Page: 'scw-card-page' };

/** One marker as its card, link or button. */
export function renderMarker<Node>(h: CreateElement<Node>, marker: Marker, handlers: RichHandlers, key: string): Node {
  const onClick = (event: Event) => handlers.onMarker(marker, event);
  switch (marker.type) {
    case 'Link': {
      const href = safeHref(marker.value) ?? '#';
      const external = /^https?:/i.test(href);
      return h(
        'a',
        { key, className: 'scw-link', href, onClick, 'data-marker': 'Link', ...(external ? { target: '_blank', rel: 'noopener noreferrer' } : {}) },
        marker.label,
      );
    }
    case 'Action':
      return h('button', { key, type: 'button', className: 'scw-action', onClick, 'data-marker': 'Action' }, marker.label);
    default: {
      const icon: IconName = marker.type === 'Skill' ? skillIcon(marker.value) : marker.type === 'Agent' ? 'bot' : 'file';
      return h(
        'button',
        { key, type: 'button', className: `scw-card ${CARD[marker.type]}`, onClick, 'data-marker': marker.type, 'data-icon': icon },
        renderShapes(h, cardIcon(icon)),
        h('span', null, marker.label),
      );
    }
  }
}

/** Render bot text: inline markdown subset for text, cards, links and buttons for markers. */
export function renderRich<Node>(h: CreateElement<Node>, text: string, handlers: RichHandlers): (Node | string)[] {
  return renderSegments(h, parseRichText(text), handlers);
}

/** Render parsed bot text (a caller may pass a prefix of the segments to render a long message in steps). */
export function renderSegments<Node>(h: CreateElement<Node>, segments: RichSegment[], handlers: RichHandlers): (Node | string)[] {
  return segments.flatMap((segment, index) =>
    segment.kind === 'text' ? renderInline(h, segment.text, String(index)) : [renderMarker(h, segment.marker, handlers, `m${index}`)],
  );
}
