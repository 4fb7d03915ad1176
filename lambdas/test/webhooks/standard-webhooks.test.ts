import { verify, verifyHeaders, verifyStandard, type HeaderLookup } from '@service/webhooks';
import type { IncomingHttpHeaders } from 'node:http';
import { Webhook } from 'standardwebhooks';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openApiProblems } from '../support/openapi';
import { usePlatform, type ApiResponse } from '../support/platform';
import { deliveryLog } from './helpers';
import { startReceiver, type Receiver } from './receiver';

// Turns the 2 min retry into 0.6 s.
const context = usePlatform({ env: { WEBHOOK_ALLOW_LOCAL: '1', WEBHOOK_RETRY_SCALE: '0.005' } });

interface Created {
  subscription: { id: string };
  signing_secret: string | null;
  standard_webhooks_secret: string | null;
  secret_already_shown: boolean;
}

const lookup =
  (headers: IncomingHttpHeaders): HeaderLookup =>
  (name) =>
    headers[name.toLowerCase()] as string | undefined;

const withoutOurSignature = ({ 'x-service-signature': _ours, ...rest }: IncomingHttpHeaders) => rest;

describe('Standard Webhooks beside our Stripe-style signature', () => {
  let hook: Receiver;
  beforeAll(async () => {
    // The first attempt is refused, so the delivery is retried once.
    hook = await startReceiver((_request, index) => (index === 0 ? 503 : 204));
  });
  afterAll(() => hook?.close());

  it('webhooks/create shows the signing secret and its whsec_ Standard Webhooks form once; a replay shows neither', async () => {
    const body = { url: 'https://example.com/standard', events: ['agent.command.completed'] };
    const headers = { 'idempotency-key': 'standard-webhooks-once' };
    const first = await context.api<Created>('webhooks/create/', { body, headers });
    expect(first.status).toBe(201);
    expect(openApiProblems('webhooksCreate', first as ApiResponse<unknown>)).toEqual([]);
    const { signing_secret, standard_webhooks_secret } = first.body.data;
    expect(standard_webhooks_secret).toBe(`whsec_${Buffer.from(signing_secret!, 'utf8').toString('base64')}`);
    const replay = await context.api<Created>('webhooks/create/', { body, headers });
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body.data).toMatchObject({
      subscription: { id: first.body.data.subscription.id },
      signing_secret: null,
      standard_webhooks_secret: null,
      secret_already_shown: true,
    });
  });

  it("one delivery verifies with Stripe's constructEvent, the standardwebhooks library and @service/webhooks; retries and redelivery keep its webhook-id", async () => {
    const created = await context.api<Created>('webhooks/create/', { body: { url: hook.url, events: ['agent.command.completed'] } });
    const { subscription, signing_secret: secret, standard_webhooks_secret: standardSecret } = created.body.data;
    const command = await context.api<{ run: { run_id: string } }>('agents/command/', {
      body: { agent_id: context.agentId, instruction: 'What does it cost?' },
    });
    expect(command.status).toBe(202);

    await hook.waitFor((requests) => requests.length === 2);
    const [refused, delivered] = hook.requests as [Receiver['requests'][0], Receiver['requests'][0]];
    const raw = delivered.rawBody;
    const headers = delivered.headers;
    const eventId = delivered.event.id;
    expect(delivered.event).toMatchObject({ event: 'agent.command.completed', data: { run_id: command.body.data.run.run_id } });
    expect(headers['webhook-id']).toBe(eventId);
    expect(headers['webhook-timestamp']).toMatch(/^\d+$/);
    expect(headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
    // The retry is the same message: same id and body, signed afresh.
    expect(refused.headers['webhook-id']).toBe(eventId);
    expect(refused.rawBody.equals(raw)).toBe(true);

    // Stripe's verifier, with our signing secret, on our X-Service-Signature header.
    const stripe = new Stripe('sk_test_unused');
    expect(stripe.webhooks.constructEvent(raw, headers['x-service-signature'] as string, secret!)).toMatchObject({ id: eventId });
    // The standardwebhooks library, with the whsec_ form, on the webhook-* headers alone (the raw secret is not that form).
    const standardHeaders = withoutOurSignature(headers) as Record<string, string>;
    expect(new Webhook(standardSecret!).verify(raw.toString('utf8'), standardHeaders)).toMatchObject({ id: eventId });
    expect(() => new Webhook(secret!).verify(raw.toString('utf8'), standardHeaders)).toThrow(/No matching signature/);
    // @service/webhooks, with the signing secret, on either form.
    expect(verify(raw, headers['x-service-signature'] as string, secret!).id).toBe(eventId);
    const standard = {
      id: headers['webhook-id'] as string,
      timestamp: headers['webhook-timestamp'] as string,
      signature: headers['webhook-signature'] as string,
    };
    expect(verifyStandard(raw, standard, secret!).id).toBe(eventId);
    expect(verifyHeaders(raw, lookup(withoutOurSignature(headers)), secret!).id).toBe(eventId);
    expect(() => verifyStandard(raw, { ...standard, id: 'evt_another' }, secret!)).toThrow(/does not match/);

    const redelivered = await context.api('webhooks/redeliver/', { body: { webhook_id: subscription.id, event_id: eventId } });
    expect(redelivered.status).toBe(202);
    await hook.waitFor((requests) => requests.length === 3);
    const again = hook.requests[2]!;
    expect(again.headers['webhook-id']).toBe(eventId);
    expect(new Webhook(standardSecret!).verify(again.rawBody.toString('utf8'), again.headers as Record<string, string>)).toMatchObject({ id: eventId });
    expect(stripe.webhooks.constructEvent(again.rawBody, again.headers['x-service-signature'] as string, secret!)).toMatchObject({ id: eventId });
    const log = await deliveryLog(context.api, subscription.id);
    expect(log.map((attempt) => [attempt.event_id, attempt.redelivery, attempt.success])).toEqual(
      expect.arrayContaining([
        [eventId, false, false],
        [eventId, false, true],
      ]),
    );
  });
});
