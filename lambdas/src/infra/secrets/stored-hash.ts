import { createHash } from 'node:crypto';

/** How every secret is kept (API keys, session ids, sign-in codes, invitation and OAuth tokens): its SHA-256, hex. */
export const storedHash = (secret: string): string => createHash('sha256').update(secret).digest('hex');
