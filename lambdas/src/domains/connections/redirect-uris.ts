import { KNOWN_ASSISTANT_SCHEMES } from '@service/shared';

const LOOPBACK_HOSTS = new Set(['127.0.0.1', '[::1]', 'localhost']);

/**
 * Why a redirect URI may not be registered, or undefined when it may: https anywhere; http only on a loopback host
 * (any port, RFC 8252 §7.3); the custom schemes of known assistants (cursor://, vscode://, …). Never a fragment,
 * never embedded credentials.
 */
export function redirectUriProblem(raw: string): string | undefined {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return `${raw} is not an absolute URI`;
  }
  if (url.hash || raw.includes('#')) return `${raw} has a fragment`;
  if (url.username || url.password) return `${raw} embeds credentials`;
  const scheme = url.protocol.slice(0, -1);
  if (scheme === 'https') return url.hostname ? undefined : `${raw} names no host`;
  if (scheme === 'http')
    return LOOPBACK_HOSTS.has(url.hostname) ? undefined : `${raw}: http is allowed only on a loopback address (127.0.0.1, [::1], localhost)`;
  if ((KNOWN_ASSISTANT_SCHEMES as readonly string[]).includes(scheme)) return undefined;
  return `${raw}: the scheme ${scheme} is not one of https, loopback http or a known assistant's (${KNOWN_ASSISTANT_SCHEMES.join(', ')})`;
}

/** Exact string comparison (OAuth 2.1 §4.1.1): no normalisation, no prefix match. */
export const redirectUriRegistered = (registered: readonly string[], presented: string): boolean => registered.includes(presented);
