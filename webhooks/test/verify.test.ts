import { createHmac } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { describe, expect, it } from 'vitest';
import {
  signatureHeader,
  signedHeaders,
  standardSignature,
  standardWebhooksSecret,
  verify,
  verifyExpressRequest,
  verifyHeaders,
  verifyLambdaEvent,
  verifyRequest,
  verifyStandard,
  WebhookVerificationError,
} from '@service/webhooks';

const secret = 'whsec_test_0123456789abcdefghijklmnopqrstuv';
// Non-ASCII and spacing on purpose: re-serialising this JSON would change the bytes.
const rawBody =
  '{"id":"evt_abc123def456ghi789jkl012","event":"agent.command.completed","created_at":"2026-01-02T03:04:05.000Z","data":{"run_id":"cmd_1","result_text":"Grüße 👋",  "n": 1.50}}';
const now = new Date('2026-01-02T03:04:10Z');
const t = Math.floor(now.getTime() / 1000);

const failure = (fn: () => unknown) => {
  try {
    fn();
  } catch (error) {
    if (error instanceof WebhookVerificationError) return error.reason;
    throw error;
  }
  return 'verified';
};

describe('verify', () => {
  it('accepts our signature over the raw body as string, Buffer or Uint8Array, and returns the event', () => {
    const header = signatureHeader(secret, rawBody, t);
    expect(verify(rawBody, header, secret, { now }).data).toMatchObject({ result_text: 'Grüße 👋' });
    expect(verify(Buffer.from(rawBody), header, secret, { now }).id).toBe('evt_abc123def456ghi789jkl012');
    expect(verify(new TextEncoder().encode(rawBody), header, secret, { now }).event).toBe('agent.command.completed');
  });

  it('matches the algorithm as Stripe documents it (signed_payload = t + "." + body, HMAC-SHA256, hex)', () => {
    const header = signatureHeader(secret, rawBody, t);
    // Stripe's steps: split on ",", then on "=", take t and v1; compute the expected signature; compare.
    const elements = Object.fromEntries(header.split(',').map((element) => element.split('=') as [string, string]));
    const expected = createHmac('sha256', secret).update(`${elements.t}.${rawBody}`).digest('hex');
    expect(elements.t).toBe(String(t));
    expect(elements.v1).toBe(expected);
  });

  it('rejects a re-serialised body, another secret, and a tampered signature', () => {
    const header = signatureHeader(secret, rawBody, t);
    expect(failure(() => verify(JSON.stringify(JSON.parse(rawBody)), header, secret, { now }))).toBe('signature_mismatch');
    expect(failure(() => verify(rawBody, header, 'whsec_other', { now }))).toBe('signature_mismatch');
    const flipped = header.replace(/.$/, (last) => (last === '0' ? '1' : '0'));
    expect(failure(() => verify(rawBody, flipped, secret, { now }))).toBe('signature_mismatch');
  });

  it('checks the timestamp in both directions', () => {
    expect(failure(() => verify(rawBody, signatureHeader(secret, rawBody, t - 301), secret, { now }))).toBe('timestamp_out_of_tolerance');
    expect(failure(() => verify(rawBody, signatureHeader(secret, rawBody, t + 301), secret, { now }))).toBe('timestamp_out_of_tolerance');
    expect(failure(() => verify(rawBody, signatureHeader(secret, rawBody, t - 300), secret, { now }))).toBe('verified');
    expect(failure(() => verify(rawBody, signatureHeader(secret, rawBody, t + 30), secret, { now, toleranceSeconds: 10 }))).toBe('timestamp_out_of_tolerance');
  });

  it('explains missing and malformed headers', () => {
    expect(failure(() => verify(rawBody, undefined, secret, { now }))).toBe('missing_header');
    expect(failure(() => verify(rawBody, 'sha256=abc', secret, { now }))).toBe('malformed_header');
    expect(failure(() => verify(rawBody, `t=${t}`, secret, { now }))).toBe('malformed_header');
    expect(failure(() => verify(rawBody, `t=${t},v1=zz`, secret, { now }))).toBe('malformed_header');
  });

  it('accepts when any of several v1 signatures matches (secret rotation)', () => {
    const good = signatureHeader(secret, rawBody, t).split(',')[1]!;
    expect(verify(rawBody, `t=${t},v1=${'0'.repeat(64)},${good}`, secret, { now }).id).toMatch(/^evt_/);
  });
});

describe('verifyStandard (Standard Webhooks)', () => {
  const id = 'evt_abc123def456ghi789jkl012';
  const standard = (at = t, signature = standardSignature(secret, id, at, rawBody)) => ({ id, timestamp: String(at), signature });

  it('signs as the standard says: v1, base64 HMAC-SHA256 of id.timestamp.body keyed with the whsec_ secret decoded', () => {
    const whsec = standardWebhooksSecret(secret);
    expect(whsec).toBe(`whsec_${Buffer.from(secret).toString('base64')}`);
    const key = Buffer.from(whsec.slice('whsec_'.length), 'base64');
    expect(standardSignature(secret, id, t, rawBody)).toBe(`v1,${createHmac('sha256', key).update(`${id}.${t}.${rawBody}`).digest('base64')}`);
    expect(verifyStandard(rawBody, standard(), secret, { now }).data).toMatchObject({ result_text: 'Grüße 👋' });
  });

  it('rejects another id, body or secret; checks the timestamp both ways; accepts any of several signatures', () => {
    expect(failure(() => verifyStandard(rawBody, { ...standard(), id: 'evt_other' }, secret, { now }))).toBe('signature_mismatch');
    expect(failure(() => verifyStandard(rawBody.replace('1.50', '1.5'), standard(), secret, { now }))).toBe('signature_mismatch');
    expect(failure(() => verifyStandard(rawBody, standard(), 'whsec_other', { now }))).toBe('signature_mismatch');
    expect(failure(() => verifyStandard(rawBody, standard(t - 301), secret, { now }))).toBe('timestamp_out_of_tolerance');
    expect(failure(() => verifyStandard(rawBody, standard(t + 301), secret, { now }))).toBe('timestamp_out_of_tolerance');
    const good = standardSignature(secret, id, t, rawBody);
    expect(failure(() => verifyStandard(rawBody, standard(t, `v1,${Buffer.alloc(32).toString('base64')} v2,abc ${good}`), secret, { now }))).toBe('verified');
  });

  it('explains missing and malformed headers', () => {
    expect(failure(() => verifyStandard(rawBody, { ...standard(), id: undefined }, secret, { now }))).toBe('missing_header');
    expect(failure(() => verifyStandard(rawBody, standard(t, 'v1,short'), secret, { now }))).toBe('malformed_header');
    expect(failure(() => verifyStandard(rawBody, { ...standard(), timestamp: 'soon' }, secret, { now }))).toBe('malformed_header');
    expect(failure(() => verifyHeaders(rawBody, () => undefined, secret, { now }))).toBe('missing_header');
  });

  it('signedHeaders carries both signatures; the helpers verify either one alone', async () => {
    const headers = signedHeaders(secret, { id, timestamp: t, rawBody });
    expect(Object.keys(headers)).toEqual(['X-Service-Signature', 'webhook-id', 'webhook-timestamp', 'webhook-signature']);
    const { 'X-Service-Signature': ours, ...standardOnly } = headers;
    expect(verifyLambdaEvent({ body: rawBody, headers: { 'X-Service-Signature': ours } }, secret, { now }).id).toBe(id);
    expect(
      verifyLambdaEvent(
        { body: rawBody, headers: { 'Webhook-Id': id, 'WEBHOOK-TIMESTAMP': String(t), 'webhook-signature': standardOnly['webhook-signature']! } },
        secret,
        { now },
      ).id,
    ).toBe(id);
    const request = new Request('https://receiver.example/hooks', { method: 'POST', headers: standardOnly, body: rawBody });
    expect((await verifyRequest(request, secret, { now })).id).toBe(id);
    const forged = new Request('https://receiver.example/hooks', { method: 'POST', headers: { ...standardOnly, 'webhook-id': 'evt_forged' }, body: rawBody });
    await expect(verifyRequest(forged, secret, { now })).rejects.toMatchObject({ reason: 'signature_mismatch' });
  });
});

describe('verifyExpressRequest', () => {
  it('verifies a delivery to an Express 5 route with express.raw, and explains a parsed body', async () => {
    const app = express();
    const handle = (req: express.Request, res: express.Response) => {
      try {
        const event = verifyExpressRequest(req, secret);
        res.status(200).json({ received: event.id });
      } catch (error) {
        res.status(400).json({ error: (error as WebhookVerificationError).reason, message: (error as Error).message });
      }
    };
    app.post('/raw', express.raw({ type: 'application/json' }), handle);
    app.post('/parsed', express.json(), handle);
    const server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const post = (path: string, header: string) =>
        fetch(`${base}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', 'X-Service-Signature': header }, body: rawBody });
      const header = signatureHeader(secret, rawBody, Math.floor(Date.now() / 1000));

      const ok = await post('/raw', header);
      expect(ok.status).toBe(200);
      expect(await ok.json()).toEqual({ received: 'evt_abc123def456ghi789jkl012' });

      const forged = await post('/raw', signatureHeader('whsec_attacker', rawBody, Math.floor(Date.now() / 1000)));
      expect(forged.status).toBe(400);
      expect((await forged.json()).error).toBe('signature_mismatch');

      const parsed = await post('/parsed', header);
      expect(parsed.status).toBe(400);
      expect((await parsed.json()).message).toMatch(/express\.raw/);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe('verifyLambdaEvent', () => {
  it('verifies a base64-encoded API Gateway body, with any header casing', () => {
    const header = signatureHeader(secret, rawBody, t);
    const event = {
      isBase64Encoded: true,
      body: Buffer.from(rawBody).toString('base64'),
      headers: { 'x-service-signature': header, 'content-type': 'application/json' },
    };
    expect(verifyLambdaEvent(event, secret, { now }).data).toMatchObject({ result_text: 'Grüße 👋' });
    expect(verifyLambdaEvent({ isBase64Encoded: false, body: rawBody, headers: { 'X-Service-Signature': header } }, secret, { now }).id).toMatch(/^evt_/);
  });

  it('fails when the base64 body is verified as if it were the raw body', () => {
    const header = signatureHeader(secret, rawBody, t);
    const event = { isBase64Encoded: false, body: Buffer.from(rawBody).toString('base64'), headers: { 'x-service-signature': header } };
    expect(failure(() => verifyLambdaEvent(event, secret, { now }))).toBe('signature_mismatch');
    expect(failure(() => verifyLambdaEvent({ body: rawBody, headers: {} }, secret, { now }))).toBe('missing_header');
  });
});

describe('verifyRequest', () => {
  it('verifies a web-standard Request from its bytes', async () => {
    const header = signatureHeader(secret, rawBody, t);
    const request = new Request('https://receiver.example/hooks', {
      method: 'POST',
      headers: { 'X-Service-Signature': header },
      body: new TextEncoder().encode(rawBody),
    });
    const verified = await verifyRequest(request, secret, { now });
    expect(verified.event === 'agent.command.completed' && verified.data.run_id).toBe('cmd_1');
    const tampered = new Request('https://receiver.example/hooks', {
      method: 'POST',
      headers: { 'X-Service-Signature': header },
      body: rawBody.replace('1.50', '1.5'),
    });
    await expect(verifyRequest(tampered, secret, { now })).rejects.toMatchObject({ reason: 'signature_mismatch' });
  });
});
