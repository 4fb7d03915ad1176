import { markerIntent, safeHref } from './markers';
import type { ChatBus } from './event-bus';
import type { Locale, Marker } from './event-bus';

export type Navigation = { kind: 'internal'; path: string } | { kind: 'external'; url: string };

const LOCALE_PREFIX = /^\/(en|tr)(\/|$|[?#])/;

/**
 * How the spec's host layout handles a navigate request: internal links get the current locale prefix,
 * external URLs open in a new tab. Origins are compared after parsing; unsafe hrefs give null.
 */
export function resolveNavigation(href: string, locale: Locale, currentOrigin: string): Navigation | null {
  const safe = safeHref(href, currentOrigin);
  if (!safe) return null;
  if (!safe.startsWith('/') && !safe.startsWith('#')) {
    const url = new URL(safe);
    if (url.origin !== currentOrigin) return { kind: 'external', url: safe };
    return resolveNavigation(url.pathname + url.search + url.hash, locale, currentOrigin);
  }
  if (safe.startsWith('#') || LOCALE_PREFIX.test(safe)) return { kind: 'internal', path: safe };
  return { kind: 'internal', path: `/${locale}${safe}` };
}

/** The widget's own navigate handling, used when no host listener handles `navigate`. */
export function navigateSelf(href: string, locale: Locale): void {
  const target = resolveNavigation(href, locale, location.origin);
  if (!target) {
    console.warn('[service-chat] refused to navigate to an unsafe address');
    return;
  }
  if (target.kind === 'external') window.open(target.url, '_blank', 'noopener,noreferrer');
  else location.assign(target.path);
}

/** Emit `navigate`; when no host listener handles it, navigate the way the spec's host layout does. */
export function requestNavigation(bus: ChatBus, href: string, locale: Locale): void {
  const safe = safeHref(href);
  if (!safe) return console.warn('[service-chat] refused to navigate to an unsafe address');
  bus.emit('navigate', { href: safe });
  if (!bus.hasListeners('navigate')) navigateSelf(safe, locale);
}

/** A click on a rendered marker: UI actions and navigation go through the bus; external links open natively. */
export function handleMarkerClick(bus: ChatBus, marker: Marker, event: Event, locale: Locale): void {
  const intent = markerIntent(marker);
  // Talk to a person: the widget hears it as the host's inbound `handoff` (one way for both).
  if (intent.kind === 'handoff') return bus.emit('handoff', {});
  if (intent.kind === 'uiAction') {
    bus.emit('uiAction', { action: intent.action, target: intent.target });
    return;
  }
  if (marker.type === 'Link' && /^https?:/i.test(intent.href) && resolveNavigation(intent.href, locale, location.origin)?.kind === 'external') {
    return;
  }
  event.preventDefault();
  requestNavigation(bus, intent.href, locale);
}
