import type { ErrorCode } from './errors';

/**
 * A broken domain rule, named by its contract code: what the platform's domain modules raise. It knows no transport
 * (no status, no header); each surface maps it, the HTTP kit to the envelope with the code's status and a
 * Retry-After from `retryAfterSeconds`.
 */
export class DomainError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details: { field?: string; retryAfterSeconds?: number } = {},
  ) {
    super(message);
    this.name = 'DomainError';
  }
}
