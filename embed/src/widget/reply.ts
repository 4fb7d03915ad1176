// What the panel needs only once a message is sent, in the chunk that loads with the first open: the chat client and
// what a complete reply may do to the page.
import { safeHref } from '../core/markers';
import { resolveNavigation } from '../core/navigate';
import { requestNavigation } from '../core/navigate';
import type { ChatBus, Locale, Marker } from '../core/event-bus';

export { fetchHistory, streamChat, visitorIdentity } from '../core/chat-client';

// Paths a model must never send a visitor to without a click.
const DESTRUCTIVE =
  /(^|[/?#&=_.-])(delete|remove|destroy|erase|wipe|purge|logout|log-out|signout|sign-out|unsubscribe|cancel|deactivate|close-account|terminate|revoke|reset)([/?#&=_.-]|$)/i;

/** Whether a navigation the model asked for may happen without a click: same site, nothing destructive-looking. */
export function mayNavigateUnasked(href: string, locale: Locale, origin: string): boolean {
  const target = resolveNavigation(href, locale, origin);
  if (target?.kind !== 'internal') return false;
  let path = target.path;
  try {
    path = decodeURIComponent(path);
  } catch {
    // a malformed escape stays as written
  }
  return !DESTRUCTIVE.test(path);
}

/**
 * After a complete reply, the navigation the model asked for: done when harmless on this site, else the card offering
 * it (what the reply's message shows).
 */
export function followNavigation(bus: ChatBus, href: string, locale: Locale, label: (place: string) => string): Marker | undefined {
  if (!mayNavigateUnasked(href, locale, location.origin)) return navigationOffer(href, label);
  requestNavigation(bus, href, locale);
  return undefined;
}

/** The card offering a navigation the model may not perform unasked (off-site or destructive-looking). */
function navigationOffer(href: string, label: (place: string) => string): Marker | undefined {
  const safe = safeHref(href);
  if (!safe) return undefined;
  const external = !safe.startsWith('/') && !safe.startsWith('#');
  const place = external ? safe.replace(/^[a-z]+:(\/\/)?/i, '') : safe;
  return { type: external ? 'Link' : 'Page', label: label(place.slice(0, 60)), value: safe, raw: '' };
}
