import { createHmac, timingSafeEqual } from 'node:crypto';
import type { WebhookEvent } from './events.js';

export type { CommandCompletedData, CommandFailedData, WebhookEvent, WebhookEventData, WebhookEventType, WebhookTestData } from './events.js';

/**
 * @service/webhooks: signing and verification of the platform's webhook deliveries (the platform signs with this
 * package, receivers verify with it).
 * Header `X-Service-Signature: t=<unix seconds>,v1=<hex>`, where v1 is HMAC-SHA256 of `t + "." + rawBody` keyed with
 * the subscription's signing secret: the same scheme as Stripe's. Always verify the raw bytes as received: a body that
 * a framework parsed and re-serialized no longer matches.
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
 * Answer 2xx quickly (within 5 s) and deduplicate on `event.id`: a delivery may arrive more than once.
 */
export const SIGNATURE_HEADER = 'X-Service-Signature';
export const EVENT_HEADER = 'X-Service-Event';
export const DEFAULT_TOLERANCE_SECONDS = 300;

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
  /** How far t may be from now, in either direction. Default 300. */
  toleranceSeconds?: number;
  /** The clock to compare t with (tests). */
  now?: Date;
}

const toBuffer = (body: RawBody): Buffer => (typeof body === 'string' ? Buffer.from(body, 'utf8') : Buffer.from(body.buffer, body.byteOffset, body.byteLength));

const hmacHex = (secret: string, timestamp: number, rawBody: RawBody): string =>
  createHmac('sha256', secret).update(`${timestamp}.`, 'utf8').update(toBuffer(rawBody)).digest('hex');

/** The X-Service-Signature value for a body at a time (unix seconds). */
export function signatureHeader(secret: string, rawBody: RawBody, timestamp: number): string {
  return `t=${timestamp},v1=${hmacHex(secret, timestamp, rawBody)}`;
}

function parseHeader(header: string): { timestamp: number; signatures: string[] } {
  let timestamp: number | undefined;
  const signatures: string[] = [];
  for (const part of header.split(',')) {
    const [key, value] = part.trim().split('=', 2);
    if (key === 't' && value && /^\d{1,12}$/.test(value)) timestamp = Number(value);
    // Several v1 entries may appear (while a secret is being rotated); any one may match.
    else if (key === 'v1' && value && /^[0-9a-f]{64}$/i.test(value)) signatures.push(value.toLowerCase());
  }
  if (timestamp === undefined || signatures.length === 0) {
    throw new WebhookVerificationError('malformed_header', `${SIGNATURE_HEADER} must look like t=<unix seconds>,v1=<64 hex digits>`);
  }
  return { timestamp, signatures };
}

/**
 * Verifies a delivery and returns its parsed event. Throws WebhookVerificationError when the header is missing or
 * malformed, t is further than the tolerance from now (either way), or no v1 matches (constant-time comparison).
 */
export function verify(rawBody: RawBody, header: string | null | undefined, secret: string, options: VerifyOptions = {}): WebhookEvent {
  if (!header) throw new WebhookVerificationError('missing_header', `The ${SIGNATURE_HEADER} header is missing`);
  const { timestamp, signatures } = parseHeader(header);
  const tolerance = options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
  const now = Math.floor((options.now ?? new Date()).getTime() / 1000);
  if (Math.abs(now - timestamp) > tolerance) {
    throw new WebhookVerificationError('timestamp_out_of_tolerance', `The signature timestamp is ${now - timestamp} s from now; at most ${tolerance} s is accepted`);
  }
  const expected = Buffer.from(hmacHex(secret, timestamp, rawBody), 'hex');
  const matches = signatures.some((candidate) => timingSafeEqual(expected, Buffer.from(candidate, 'hex')));
  if (!matches) throw new WebhookVerificationError('signature_mismatch', 'The signature does not match the body (verify the raw body, with the right secret)');
  try {
    return JSON.parse(toBuffer(rawBody).toString('utf8')) as WebhookEvent;
  } catch {
    throw new WebhookVerificationError('invalid_body', 'The signed body is not JSON');
  }
}

/** Express (4 or 5) with `express.raw({ type: 'application/json' })` on the route, so `req.body` is the raw Buffer. */
export function verifyExpressRequest(
  request: { body: unknown; get(name: string): string | undefined },
  secret: string,
  options?: VerifyOptions,
): WebhookEvent {
  const body = request.body;
  if (!(body instanceof Uint8Array) && typeof body !== 'string') {
    throw new WebhookVerificationError('invalid_body', 'req.body is not the raw body: mount express.raw({ type: "application/json" }) on the webhook route, before any JSON parser');
  }
  return verify(body, request.get(SIGNATURE_HEADER), secret, options);
}

/** AWS Lambda behind API Gateway or a Function URL: the body may arrive base64-encoded (isBase64Encoded). */
export function verifyLambdaEvent(
  event: { body?: string | null; isBase64Encoded?: boolean; headers?: Record<string, string | undefined> | null },
  secret: string,
  options?: VerifyOptions,
): WebhookEvent {
  const raw = event.isBase64Encoded ? Buffer.from(event.body ?? '', 'base64') : (event.body ?? '');
  const name = SIGNATURE_HEADER.toLowerCase();
  const header = Object.entries(event.headers ?? {}).find(([key]) => key.toLowerCase() === name)?.[1];
  return verify(raw, header, secret, options);
}

/** The part of a web-standard Request the verifier reads (typed structurally: no DOM or Node.js types needed). */
export interface WebRequestLike {
  headers: { get(name: string): string | null };
  arrayBuffer(): Promise<ArrayBuffer>;
}

/** A web-standard Request (Next.js route handlers, Hono, Deno, Bun, Cloudflare Workers): reads the body as bytes. */
export async function verifyRequest(request: WebRequestLike, secret: string, options?: VerifyOptions): Promise<WebhookEvent> {
  const raw = new Uint8Array(await request.arrayBuffer());
  return verify(raw, request.headers.get(SIGNATURE_HEADER), secret, options);
}
