import { LIVE_LIMITS } from '@service/shared/live-conversation';

/**
 * The page the widget is on, as the conversation keeps it for the inbox (issue 29): an http(s) address of at most
 * LIVE_LIMITS.pageUrlChars, normalised by the URL parser (which drops tabs and line breaks); anything else is not kept.
 * The page the request names is the visitor's word, never checked against the site: the inbox shows it as such.
 */
export function visitorPage(raw: string | undefined): string | undefined {
  if (!raw || raw.length > LIVE_LIMITS.pageUrlChars) return undefined;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return undefined;
  // Credentials in an address are not the inbox's business.
  url.username = '';
  url.password = '';
  return url.href.length <= LIVE_LIMITS.pageUrlChars ? url.href : undefined;
}
