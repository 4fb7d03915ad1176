/** The body exactly as received: a string, or bytes (a Node.js Buffer is a Uint8Array). */
export type RawBody = string | Uint8Array;

export type VerificationFailure = 'missing_header' | 'malformed_header' | 'timestamp_out_of_tolerance' | 'signature_mismatch' | 'invalid_body';

export class WebhookVerificationError extends Error {
  constructor(
    readonly reason: VerificationFailure,
    message: string,
  ) {
    super(message);
    this.name = 'WebhookVerificationError';
  }
}

export interface VerifyOptions {
  /** How far the signed timestamp may be from now, in either direction. Default 300. */
  toleranceSeconds?: number;
  /** The clock to compare the timestamp with (tests). */
  now?: Date;
}

export const DEFAULT_TOLERANCE_SECONDS = 300;

export const toBuffer = (body: RawBody): Buffer =>
  typeof body === 'string' ? Buffer.from(body, 'utf8') : Buffer.from(body.buffer, body.byteOffset, body.byteLength);

export function checkTimestamp(timestamp: number, options: VerifyOptions): void {
  const tolerance = options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
  const now = Math.floor((options.now ?? new Date()).getTime() / 1000);
  if (Math.abs(now - timestamp) > tolerance) {
    throw new WebhookVerificationError(
      'timestamp_out_of_tolerance',
      `The signature timestamp is ${now - timestamp} s from now; at most ${tolerance} s is accepted`,
    );
  }
}
