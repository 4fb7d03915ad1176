/**
 * Per-agent allowed origins for the public widget endpoints. An entry is an exact origin
 * (`https://shop.example`) or one with a port wildcard (`http://localhost:*`).
 */
export function originAllowed(origin: string, allowed: readonly string[]): boolean {
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  if (url.origin !== origin) return false;
  return allowed.some((entry) => {
    if (entry === origin) return true;
    if (!entry.endsWith(':*')) return false;
    return `${url.protocol}//${url.hostname}` === entry.slice(0, -2);
  });
}

/** CORS response headers: the origin is echoed only when the agent allows it (and caches then vary by Origin). */
export function corsHeaders(origin: string | undefined, allowed: readonly string[], methods: string): Record<string, string> {
  const base = { vary: 'Origin' };
  if (!origin || !originAllowed(origin, allowed)) return base;
  return {
    ...base,
    'access-control-allow-origin': origin,
    'access-control-allow-methods': methods,
    // x-user-token (or the older x-user-id and x-user-hash): a verified visitor's identity (the widget's history and chat
    // requests; a refused one is named by x-visitor-identity-error, which the page may read); x-visitor-id
    // and last-event-id: the visitor's live stream.
    'access-control-allow-headers': 'content-type, accept, x-user-token, x-user-id, x-user-hash, x-visitor-id, last-event-id',
    'access-control-expose-headers': 'x-visitor-identity-error',
    'access-control-max-age': '600',
  };
}
