import { VIEWER_HOST_HEADER } from '@service/shared';
import { header, type HttpEvent } from './event';
import { requestOrigin } from './web-fetch';

const ONE_LABEL = /^[a-z0-9-]+$/;

const hostAllowed = (host: string, pattern: string): boolean =>
  pattern.startsWith('*.') ? host.endsWith(pattern.slice(1)) && ONE_LABEL.test(host.slice(0, -(pattern.length - 1))) : host === pattern;

/**
 * The origin the viewer addressed. Behind the CDN the function's own Host is its Function URL, so the CDN names the
 * viewer's host in VIEWER_HOST_HEADER, trusted only for a name the stack allows (PUBLIC_HOSTS); else the request's
 * own origin. A caller who forges it must reach the Function URL directly, and changes only its own answers: tokens
 * stay bound to the resource they were issued for, and the session cookie to the real origin.
 */
export function publicOrigin(event: HttpEvent, allowedHosts: readonly string[]): string {
  const viewerHost = header(event, VIEWER_HOST_HEADER)?.toLowerCase();
  if (viewerHost && allowedHosts.some((pattern) => hostAllowed(viewerHost, pattern))) return `${header(event, 'x-forwarded-proto') ?? 'https'}://${viewerHost}`;
  return requestOrigin(event);
}
