import { header, type HttpEvent } from './event';

/** The cookies of a `Cookie` header (API Gateway v2 also hands them over as `event.cookies`). */
export function parseCookies(cookieHeader: string | undefined): Map<string, string> {
  const cookies = new Map<string, string>();
  for (const part of (cookieHeader ?? '').split(';')) {
    const at = part.indexOf('=');
    if (at <= 0) continue;
    const name = part.slice(0, at).trim();
    if (!cookies.has(name)) cookies.set(name, part.slice(at + 1).trim());
  }
  return cookies;
}

/** The request's cookies as one header value, wherever the gateway put them. */
export const cookieHeaderOf = (event: HttpEvent): string | undefined => (event.cookies?.length ? event.cookies.join('; ') : header(event, 'cookie'));

/** A loopback host (with or without port): cookies there may go without `Secure`, browsers treat it as secure context. */
export function isLoopbackHost(host: string | undefined): boolean {
  const hostname = (host ?? '').replace(/:\d+$/, '').toLowerCase();
  return hostname === 'localhost' || hostname === '127.0.0.1' || hostname === '[::1]';
}

export interface CookieOptions {
  maxAgeSeconds: number;
  secure: boolean;
}

/** A `Set-Cookie` value: HttpOnly, SameSite=Lax, Path=/, Secure unless told otherwise (loopback). */
export function serializeCookie(name: string, value: string, options: CookieOptions): string {
  return [`${name}=${value}`, 'Path=/', 'HttpOnly', 'SameSite=Lax', `Max-Age=${options.maxAgeSeconds}`, ...(options.secure ? ['Secure'] : [])].join('; ');
}

/** A `Set-Cookie` value that removes the cookie. */
export const clearedCookie = (name: string, secure: boolean): string => serializeCookie(name, '', { maxAgeSeconds: 0, secure });

/**
 * The request's own origin (scheme and Host, as the browser addressed it); `configured` (DASHBOARD_ORIGIN) wins
 * where a proxy in front rewrites Host.
 */
export function requestOrigin(event: HttpEvent, configured?: string): string {
  if (configured) return configured;
  const host = header(event, 'host') ?? 'localhost';
  const proto = header(event, 'x-forwarded-proto')?.split(',')[0]?.trim() ?? 'https';
  return `${proto}://${host}`;
}
