import { createHmac, timingSafeEqual } from 'node:crypto';
import { checkTimestamp, toBuffer, WebhookVerificationError, type RawBody, type VerifyOptions } from './core.js';
import type { WebhookEvent } from './events.js';
import {
  parseStandardHeaders,
  standardDigest,
  standardSignature,
  WEBHOOK_ID_HEADER,
  WEBHOOK_SIGNATURE_HEADER,
  WEBHOOK_TIMESTAMP_HEADER,
  type StandardHeaders,
} from './standard.js';

export type {
  AuditActor,
  AuditEventData,
  CommandActionRequiredData,
  CommandCompletedData,
  CommandFailedData,
  ConversationClosedData,
  ConversationHandoffRequestedData,
  ConversationMessageCreatedData,
  ConversationRef,
  EvalRunCompletedData,
  KnowledgeSourceFailedData,
  KnowledgeSourceSyncedData,
  WebhookEvent,
  WebhookEventData,
  WebhookEventType,
  WebhookTestData,
} from './events.js';
export { DEFAULT_TOLERANCE_SECONDS, WebhookVerificationError, type RawBody, type VerificationFailure, type VerifyOptions } from './core.js';
export {
  standardSignature,
  standardWebhooksSecret,
  WEBHOOK_ID_HEADER,
  WEBHOOK_SIGNATURE_HEADER,
  WEBHOOK_TIMESTAMP_HEADER,
  type StandardHeaders,
} from './standard.js';

/**
 * @service/webhooks: signing and verification of the platform's webhook deliveries (the platform signs with this
 * package, receivers verify with it). Every delivery carries two signatures over the same raw body, with the same key:
 * - `X-Service-Signature: t=<unix seconds>,v1=<hex>`, v1 the HMAC-SHA256 of `t + "." + rawBody` keyed with the
 *   subscription's signing secret: Stripe's scheme;
 * - `webhook-id`, `webhook-timestamp`, `webhook-signature: v1,<base64>`: Standard Webhooks (see standard.ts).
 * The verifiers take the signing secret and accept either. Always verify the raw bytes as received: a body that a
 * framework parsed and re-serialized no longer matches.
 *
 * Express (raw body on the webhook route, before any JSON parser):
 *   app.post('/hooks', express.raw({ type: 'application/json' }), (req, res) => {
 *     const event = verifyExpressRequest(req, process.env.SIGNING_SECRET!); // throws WebhookVerificationError
 *     if (event.event === 'agent.command.completed') console.log(event.data.result_text);
 *     res.sendStatus(204);
 *   });
 * AWS Lambda (API Gateway or Function URL; base64 bodies handled):
 *   export const handler = async (event) => {
 *     const delivery = verifyLambdaEvent(event, process.env.SIGNING_SECRET!);
 *     return { statusCode: 204 };
 *   };
 * Web-standard Request (Next.js route handler, Hono, Bun, Deno, Workers):
 *   export async function POST(request: Request) {
 *     const event = await verifyRequest(request, process.env.SIGNING_SECRET!);
 *     return new Response(null, { status: 204 });
 *   }
 * Answer 2xx quickly (within 5 s) and deduplicate on `event.id` (also sent as webhook-id): a delivery may arrive more than once.
 */
export const SIGNATURE_HEADER = 'X-Service-Signature';
export const EVENT_HEADER = 'X-Service-Event';

const hmacHex = (secret: string, timestamp: number, rawBody: RawBody): string =>
  createHmac('sha256', secret).update(`${timestamp}.`, 'utf8').update(toBuffer(rawBody)).digest('hex');

/** The X-Service-Signature value for a body at a time (unix seconds). */
export function signatureHeader(secret: string, rawBody: RawBody, timestamp: number): string {
  return `t=${timestamp},v1=${hmacHex(secret, timestamp, rawBody)}`;
}

/** Both signatures of a delivery: X-Service-Signature and the three Standard Webhooks headers (`id`: the event id). */
export function signedHeaders(secret: string, message: { id: string; timestamp: number; rawBody: RawBody }): Record<string, string> {
  const { id, timestamp, rawBody } = message;
  return {
    [SIGNATURE_HEADER]: signatureHeader(secret, rawBody, timestamp),
    [WEBHOOK_ID_HEADER]: id,
    [WEBHOOK_TIMESTAMP_HEADER]: String(timestamp),
    [WEBHOOK_SIGNATURE_HEADER]: standardSignature(secret, id, timestamp, rawBody),
  };
}

function parseHeader(header: string): { timestamp: number; signatures: Buffer[] } {
  let timestamp: number | undefined;
  const signatures: Buffer[] = [];
  for (const part of header.split(',')) {
    const [key, value] = part.trim().split('=', 2);
    if (key === 't' && value && /^\d{1,12}$/.test(value)) timestamp = Number(value);
    // Several v1 entries may appear (while a secret is being rotated); any one may match.
    else if (key === 'v1' && value && /^[0-9a-f]{64}$/i.test(value)) signatures.push(Buffer.from(value, 'hex'));
  }
  if (timestamp === undefined || signatures.length === 0) {
    throw new WebhookVerificationError('malformed_header', `${SIGNATURE_HEADER} must look like t=<unix seconds>,v1=<64 hex digits>`);
  }
  return { timestamp, signatures };
}

/** Constant-time: does any received signature equal the expected one? Then the body is parsed as the event. */
function acceptedEvent(expected: Buffer, signatures: Buffer[], rawBody: RawBody): WebhookEvent {
  if (!signatures.some((candidate) => timingSafeEqual(expected, candidate))) {
    throw new WebhookVerificationError('signature_mismatch', 'The signature does not match the body (verify the raw body, with the right secret)');
  }
  try {
    return JSON.parse(toBuffer(rawBody).toString('utf8')) as WebhookEvent;
  } catch {
    throw new WebhookVerificationError('invalid_body', 'The signed body is not JSON');
  }
}

/**
 * Verifies a delivery by its X-Service-Signature and returns its parsed event. Throws WebhookVerificationError when
 * the header is missing or malformed, t is further than the tolerance from now (either way), or no v1 matches.
 */
export function verify(rawBody: RawBody, header: string | null | undefined, secret: string, options: VerifyOptions = {}): WebhookEvent {
  if (!header) throw new WebhookVerificationError('missing_header', `The ${SIGNATURE_HEADER} header is missing`);
  const { timestamp, signatures } = parseHeader(header);
  checkTimestamp(timestamp, options);
  return acceptedEvent(Buffer.from(hmacHex(secret, timestamp, rawBody), 'hex'), signatures, rawBody);
}

/** Verifies a delivery by its Standard Webhooks headers, with the signing secret; the same checks as verify. */
export function verifyStandard(rawBody: RawBody, headers: StandardHeaders, secret: string, options: VerifyOptions = {}): WebhookEvent {
  const { id, timestamp, signatures } = parseStandardHeaders(headers);
  checkTimestamp(timestamp, options);
  return acceptedEvent(standardDigest(secret, id, timestamp, rawBody), signatures, rawBody);
}

/** Reads a request header by name, in any casing. */
export type HeaderLookup = (name: string) => string | null | undefined;

/** Verifies by X-Service-Signature when present, else by the Standard Webhooks headers. */
export function verifyHeaders(rawBody: RawBody, header: HeaderLookup, secret: string, options?: VerifyOptions): WebhookEvent {
  const ours = header(SIGNATURE_HEADER);
  if (ours) return verify(rawBody, ours, secret, options);
  const signature = header(WEBHOOK_SIGNATURE_HEADER);
  if (signature) return verifyStandard(rawBody, { id: header(WEBHOOK_ID_HEADER), timestamp: header(WEBHOOK_TIMESTAMP_HEADER), signature }, secret, options);
  throw new WebhookVerificationError('missing_header', `Neither ${SIGNATURE_HEADER} nor ${WEBHOOK_SIGNATURE_HEADER} is present`);
}

/** Express (4 or 5) with `express.raw({ type: 'application/json' })` on the route, so `req.body` is the raw Buffer. */
export function verifyExpressRequest(request: { body: unknown; get(name: string): string | undefined }, secret: string, options?: VerifyOptions): WebhookEvent {
  const body = request.body;
  if (!(body instanceof Uint8Array) && typeof body !== 'string') {
    throw new WebhookVerificationError(
      'invalid_body',
      'req.body is not the raw body: mount express.raw({ type: "application/json" }) on the webhook route, before any JSON parser',
    );
  }
  return verifyHeaders(body, (name) => request.get(name), secret, options);
}

/** AWS Lambda behind API Gateway or a Function URL: the body may arrive base64-encoded (isBase64Encoded). */
export function verifyLambdaEvent(
  event: { body?: string | null; isBase64Encoded?: boolean; headers?: Record<string, string | undefined> | null },
  secret: string,
  options?: VerifyOptions,
): WebhookEvent {
  const raw = event.isBase64Encoded ? Buffer.from(event.body ?? '', 'base64') : (event.body ?? '');
  const headers = Object.entries(event.headers ?? {});
  return verifyHeaders(raw, (name) => headers.find(([key]) => key.toLowerCase() === name.toLowerCase())?.[1], secret, options);
}

/** The part of a web-standard Request the verifier reads (typed structurally: no DOM or Node.js types needed). */
export interface WebRequestLike {
  headers: { get(name: string): string | null };
  arrayBuffer(): Promise<ArrayBuffer>;
}

/** A web-standard Request (Next.js route handlers, Hono, Deno, Bun, Cloudflare Workers): reads the body as bytes. */
export async function verifyRequest(request: WebRequestLike, secret: string, options?: VerifyOptions): Promise<WebhookEvent> {
  const raw = new Uint8Array(await request.arrayBuffer());
  return verifyHeaders(raw, (name) => request.headers.get(name), secret, options);
}
