import { hash, timingSafeEqual } from 'node:crypto';

const digest = (value: string) => hash('sha256', value, 'buffer');

/** Checks `Authorization: Bearer <secret>` in constant time; an empty secret (development) admits everyone. */
export function bearerGuard(secret: string): (authorization: string | null) => boolean {
  if (!secret) return () => true;
  const expected = digest(secret);
  return (authorization) => {
    const match = /^Bearer\s+(.+)$/i.exec(authorization ?? '');
    return match?.[1] !== undefined && timingSafeEqual(digest(match[1].trim()), expected);
  };
}
