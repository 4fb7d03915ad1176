import { createHmac } from 'node:crypto';
import { toBuffer, WebhookVerificationError, type RawBody } from './core.js';

/**
 * Standard Webhooks (standardwebhooks.com), signed beside X-Service-Signature with the same key: `webhook-signature`
 * is `v1,<base64 HMAC-SHA256 of id + "." + timestamp + "." + rawBody>`. The standard writes a key as `whsec_` + base64
 * of its bytes; our key is the UTF-8 bytes of the signing secret, so its standard form is standardWebhooksSecret(it).
 */
export const WEBHOOK_ID_HEADER = 'webhook-id';
export const WEBHOOK_TIMESTAMP_HEADER = 'webhook-timestamp';
export const WEBHOOK_SIGNATURE_HEADER = 'webhook-signature';

/** The signing secret as Standard Webhooks libraries and gateways take it: `whsec_` + base64 of its UTF-8 bytes. */
export const standardWebhooksSecret = (signingSecret: string): string => `whsec_${Buffer.from(signingSecret, 'utf8').toString('base64')}`;

/** HMAC-SHA256 of `id + "." + timestamp + "." + rawBody`, keyed with the signing secret's UTF-8 bytes. */
export const standardDigest = (secret: string, id: string, timestamp: number, rawBody: RawBody): Buffer =>
  createHmac('sha256', secret).update(`${id}.${timestamp}.`, 'utf8').update(toBuffer(rawBody)).digest();

/** The webhook-signature value for a message id, a time (unix seconds) and a body. */
export function standardSignature(secret: string, id: string, timestamp: number, rawBody: RawBody): string {
  return `v1,${standardDigest(secret, id, timestamp, rawBody).toString('base64')}`;
}

/** The three Standard Webhooks headers as received (any may be missing). */
export interface StandardHeaders {
  id: string | null | undefined;
  timestamp: string | null | undefined;
  signature: string | null | undefined;
}

/** Parses standard headers: the message id, the timestamp and every well-formed v1 signature (bytes). */
export function parseStandardHeaders(headers: StandardHeaders): { id: string; timestamp: number; signatures: Buffer[] } {
  const { id, timestamp, signature } = headers;
  if (!id || !timestamp || !signature) {
    throw new WebhookVerificationError(
      'missing_header',
      `Standard Webhooks need ${WEBHOOK_ID_HEADER}, ${WEBHOOK_TIMESTAMP_HEADER} and ${WEBHOOK_SIGNATURE_HEADER}`,
    );
  }
  // Several space-separated signatures may appear (while a secret is being rotated); any v1 one may match.
  const signatures = signature
    .split(' ')
    .filter((entry) => entry.startsWith('v1,'))
    .map((entry) => Buffer.from(entry.slice(3), 'base64'))
    .filter((bytes) => bytes.length === 32);
  if (!/^\d{1,12}$/.test(timestamp) || signatures.length === 0) {
    throw new WebhookVerificationError(
      'malformed_header',
      `${WEBHOOK_TIMESTAMP_HEADER} must be unix seconds and ${WEBHOOK_SIGNATURE_HEADER} hold v1,<base64 HMAC-SHA256>`,
    );
  }
  return { id, timestamp: Number(timestamp), signatures };
}
