// What bot messages need beyond plain text, a chunk of its own: loaded with the first bot message (a reply, a host's
// botMessage, a restored conversation) or the first keystroke, never to open the panel. Markers become cards, links
// and buttons (rendered a step per frame when there are many), and a screen reader hears their labels; an answer gets
// its thumbs (rating.tsx).
import { h } from 'preact';
import type { VNode } from 'preact';
import { useSignal } from '@preact/signals';
import { useEffect, useMemo } from 'preact/hooks';
import { renderMarker, renderSegments } from '../core/render-rich';
import { parseRichText } from '../core/markers';
import type { Marker } from '../core/event-bus';
import type { CreateElement } from '../core/create-element';

import { richCss as markerCss } from '../core/rich-css';
import { Rating, ratingCss, type RatingProps } from './rating';

/** The styles of bot messages: their cards, and the thumbs under an answer. */
export const richCss = markerCss + ratingCss;
export { parseMarkers } from '../core/markers';
export { handleMarkerClick } from '../core/navigate';

// Preact's h has the createElement signature the shared renderer expects.
const create = h as unknown as CreateElement<VNode>;

// A message with many markers renders in steps of this many segments, one step per frame: no long task on the page.
const SEGMENTS_PER_FRAME = 20;
// What the live region reads out of one message.
const ANNOUNCE_CHARS = 240;

type OnMarker = (marker: Marker, event: Event) => void;

/** Bot text, rendered a step per frame when it is long; an answer of the agent ends with its thumbs. */
export function RichText({ text, onMarker, message, store }: { text: string; onMarker: OnMarker } & Partial<RatingProps>) {
  const segments = useMemo(() => parseRichText(text), [text]);
  const shown = useSignal(SEGMENTS_PER_FRAME);
  useEffect(() => {
    if (shown.value >= segments.length) return;
    const frame = requestAnimationFrame(() => (shown.value += SEGMENTS_PER_FRAME));
    return () => cancelAnimationFrame(frame);
  }, [shown.value, segments]);
  return (
    <>
      {renderSegments(create, segments.slice(0, shown.value), { onMarker })}
      {message?.answerId && store && <Rating message={message} store={store} />}
    </>
  );
}

/** A page the model asked to open that needs the visitor's click, as its card. */
export const Offer = ({ marker, onMarker }: { marker: Marker; onMarker: OnMarker }) => (
  <div class="scw-offer">{renderMarker(create, marker, { onMarker }, 'offer')}</div>
);

/** Text a screen reader should hear for a bot message: markers reduced to their labels. */
export function spokenText(text: string): string {
  return parseRichText(text)
    .map((segment) => (segment.kind === 'text' ? segment.text : segment.marker.label))
    .join('')
    .replace(/[*`]/g, '');
}

/** The live region's share of a message: its beginning, so a long reply is not read out whole. */
export function announcementOf(text: string): string {
  const spoken = spokenText(text.slice(0, ANNOUNCE_CHARS * 4))
    .replace(/\s+/g, ' ')
    .trim();
  return spoken.length > ANNOUNCE_CHARS ? `${spoken.slice(0, ANNOUNCE_CHARS).trimEnd()}…` : spoken;
}
