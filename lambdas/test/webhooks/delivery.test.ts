import { verify } from '@service/webhooks';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { emitEvent } from '../../src/domains/webhooks/emit';
import { openApiProblems } from '../support/openapi';
import { usePlatform } from '../support/platform';
import { completedData, deliveryLog, emitCompleted, signatureTimestamp, sleep, subscribe, subscriptionState } from './helpers';
import { startReceiver, type Receiver } from './receiver';

// 0.005 turns the 2 min and 10 min retries into 0.6 s and 3 s: long enough for signatures a few seconds apart.
const SCALE = 0.005;
const context = usePlatform({ env: { WEBHOOK_ALLOW_LOCAL: '1', WEBHOOK_RETRY_SCALE: String(SCALE) } });

let receivers: Receiver[] = [];
const receiver = async (...args: Parameters<typeof startReceiver>) => {
  const started = await startReceiver(...args);
  receivers.push(started);
  return started;
};
afterEach(async () => {
  await Promise.all(receivers.map((r) => r.close()));
  receivers = [];
});

describe('webhook deliveries', () => {
  it('delivers a signed completed event that verifies over the raw body', async () => {
    const hook = await receiver();
    const subscription = await subscribe(context.api, hook.url);
    const data = completedData('Résumé des e-mails, s’il vous plaît');
    const { eventId, deliveries } = await emitCompleted(context.platform, data);
    expect(deliveries).toBe(1);

    await hook.waitFor((requests) => requests.length === 1);
    const [request] = hook.requests;
    expect(request!.method).toBe('POST');
    expect(request!.headers['content-type']).toBe('application/json');
    expect(request!.headers['x-service-event']).toBe('agent.command.completed');
    const event = verify(request!.rawBody, request!.headers['x-service-signature'] as string, subscription.secret, { now: new Date(request!.at) });
    expect(event).toEqual({ id: eventId, event: 'agent.command.completed', created_at: expect.any(String), data });
    expect(event.id).toMatch(/^evt_/);
    expect(event.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/);
    expect(() => verify(request!.rawBody, request!.headers['x-service-signature'] as string, 'whsec_wrong')).toThrow(/does not match/);
  });

  it('sends only the events a subscription asked for, and failed events with their error', async () => {
    const failedOnly = await receiver();
    await subscribe(context.api, failedOnly.url, ['agent.command.failed']);
    await emitCompleted(context.platform);
    const failed = {
      run_id: 'cmd_x',
      agent_id: 'a',
      agent_name: 'Support',
      status: 'failed',
      instruction: 'Do it',
      error: 'The model did not answer',
      steps_count: 2,
    };
    await emitEvent(context.platform.deps, context.platform.demo.workspaceId, 'agent.command.failed', failed);
    await failedOnly.waitFor((requests) => requests.length === 1);
    await sleep(300);
    expect(failedOnly.requests.map((request) => request.event.event)).toEqual(['agent.command.failed']);
    expect(failedOnly.requests[0]!.event.data).toEqual(failed);
  });

  it('retries a receiver that fails twice: exactly three attempts, re-signed, on the schedule', async () => {
    const hook = await receiver((_request, index) => (index < 2 ? 503 : 204));
    const subscription = await subscribe(context.api, hook.url);
    const { eventId } = await emitCompleted(context.platform);

    await hook.waitFor((requests) => requests.length === 3);
    await sleep(1_000); // a duplicate 4th attempt would show up here
    expect(hook.requests).toHaveLength(3);

    const [first, second, third] = hook.requests as [(typeof hook.requests)[0], (typeof hook.requests)[0], (typeof hook.requests)[0]];
    // Same event and bytes each time, a signature made at the time of each attempt.
    for (const request of hook.requests) {
      expect(request.event.id).toBe(eventId);
      expect(request.rawBody.equals(first.rawBody)).toBe(true);
      expect(() =>
        verify(request.rawBody, request.headers['x-service-signature'] as string, subscription.secret, { toleranceSeconds: 1, now: new Date(request.at) }),
      ).not.toThrow();
    }
    expect(signatureTimestamp(third.headers['x-service-signature'])).toBeGreaterThanOrEqual(signatureTimestamp(first.headers['x-service-signature']) + 3);
    expect(third.headers['x-service-signature']).not.toBe(first.headers['x-service-signature']);
    // 2 min and 10 min, scaled.
    expect(second.at - first.at).toBeGreaterThanOrEqual(120_000 * SCALE);
    expect(second.at - first.at).toBeLessThan(120_000 * SCALE + 1_500);
    expect(third.at - second.at).toBeGreaterThanOrEqual(600_000 * SCALE);
    expect(third.at - second.at).toBeLessThan(600_000 * SCALE + 1_500);

    const log = await deliveryLog(context.api, subscription.id);
    expect(log.map((entry) => [entry.attempt, entry.http_status, entry.success])).toEqual([
      [3, 204, true],
      [2, 503, false],
      [1, 503, false],
    ]);
    expect(log[1]).toMatchObject({ event_id: eventId, event: 'agent.command.completed', redelivery: false, error: 'HTTP 503' });
    expect(log.every((entry) => entry.duration_ms >= 0 && !Number.isNaN(Date.parse(entry.attempted_at)))).toBe(true);
    // Each attempt shows the body that was signed and sent.
    expect(log.every((entry) => entry.body === first.rawBody.toString('utf8'))).toBe(true);
    // The success reset the failure counter.
    expect(await subscriptionState(context.api, subscription.id)).toMatchObject({ active: true, failure_count: 0 });
  });

  it('does not follow redirects: a 3xx is a failed attempt', async () => {
    const target = await receiver();
    const redirecting = await receiver((_request, index) => (index === 0 ? 307 : 200));
    const subscription = await subscribe(context.api, redirecting.url);
    await emitCompleted(context.platform);
    await redirecting.waitFor((requests) => requests.length === 2);
    expect(target.requests).toHaveLength(0);
    const log = await deliveryLog(context.api, subscription.id);
    expect(log.map((entry) => entry.http_status)).toEqual([200, 307]);
  });

  it('lists the delivery log (never the secret) and redelivers an event with the same id and body', async () => {
    const hook = await receiver();
    const subscription = await subscribe(context.api, hook.url);
    const { eventId } = await emitCompleted(context.platform);
    await hook.waitFor((requests) => requests.length === 1);
    // An event is redelivered from the delivery log: there once its first attempt has ended.
    await vi.waitFor(async () => expect(await deliveryLog(context.api, subscription.id)).toHaveLength(1));

    const response = await context.api('webhooks/redeliver', { body: { webhook_id: subscription.id, event_id: eventId } });
    expect(response.status).toBe(202);
    expect(response.body.data).toEqual({ webhook_id: subscription.id, event_id: eventId, queued: true });
    await hook.waitFor((requests) => requests.length === 2);
    expect(hook.requests[1]!.rawBody.equals(hook.requests[0]!.rawBody)).toBe(true);

    const logResponse = await context.api('webhooks/deliveries', { query: { webhook_id: subscription.id, limit: '1' } });
    expect(openApiProblems('webhooksDeliveries', logResponse)).toEqual([]);
    expect(JSON.stringify(logResponse.body)).not.toContain(subscription.secret);
    expect((logResponse.body.data as { attempts: unknown[] }).attempts).toEqual([
      expect.objectContaining({ event_id: eventId, redelivery: true, success: true, attempt: 1 }),
    ]);
    const list = await context.api('webhooks/list');
    expect(JSON.stringify(list.body)).not.toContain(subscription.secret);
  });

  it('answers clear errors for unknown subscriptions and events', async () => {
    const hook = await receiver();
    const subscription = await subscribe(context.api, hook.url);
    const unknownEvent = await context.api('webhooks/redeliver', { body: { webhook_id: subscription.id, event_id: 'evt_000000000000000000000000' } });
    expect(unknownEvent.status).toBe(404);
    expect(unknownEvent.body.error).toEqual({ code: 'NOT_FOUND', field: 'event_id' });
    const badEvent = await context.api('webhooks/redeliver', { body: { webhook_id: subscription.id, event_id: 'nope' } });
    expect(badEvent.status).toBe(400);
    expect(badEvent.body.error).toEqual({ code: 'VALIDATION_ERROR', field: 'event_id' });
    const unknownHook = await context.api('webhooks/deliveries', { query: { webhook_id: 'whs_missing' } });
    expect(unknownHook.status).toBe(404);
    const missing = await context.api('webhooks/deliveries');
    expect(missing.status).toBe(400);
    expect(missing.body.error?.field).toBe('webhook_id');
  });

  it('refuses subscription URLs the outbound guard blocks, even with local delivery allowed', async () => {
    for (const url of [
      'http://user:pass@127.0.0.1:9/x',
      'http://169.254.169.254/latest/meta-data',
      'http://10.0.0.8/hook',
      'http://[::ffff:127.0.0.1]/x',
      'http://[fd00:ec2::254]/',
      'ftp://example.com/x',
    ]) {
      const response = await context.api('webhooks/create', { body: { url, events: ['agent.command.completed'] } });
      expect(response.status, url).toBe(400);
      expect(response.body.error, url).toEqual({ code: 'VALIDATION_ERROR', field: 'url' });
    }
  });
});
