import { describe, expect, it } from 'vitest';
import { usePlatform } from '../support/platform';
import { emitCompleted, sleep, subscribe, subscriptionState } from './helpers';
import { startReceiver } from './receiver';

const EVENTS = 1_000;
const context = usePlatform({ env: { WEBHOOK_ALLOW_LOCAL: '1', WEBHOOK_RETRY_SCALE: '0.001' } });

describe('webhook deliveries at volume', () => {
  it(`delivers ${EVENTS} events to a receiver that fails half of the requests, none acknowledged twice`, { timeout: 900_000 }, async () => {
    // Every other request fails, but never more than twice for one event: so every event can be delivered
    // within its 5 attempts, and failures never run 20 in a row (which would rightly disable the subscription).
    const failuresByEvent = new Map<string, number>();
    const hook = await startReceiver((request, index) => {
      const failures = failuresByEvent.get(request.event.id) ?? 0;
      if (index % 2 === 1 || failures >= 2) return 200;
      failuresByEvent.set(request.event.id, failures + 1);
      return 503;
    });
    try {
      const subscription = await subscribe(context.api, hook.url);
      const emitted: string[] = [];
      for (let batch = 0; batch < EVENTS / 50; batch += 1) {
        const results = await Promise.all(Array.from({ length: 50 }, () => emitCompleted(context.platform)));
        emitted.push(...results.map((result) => result.eventId));
      }
      const acknowledged = () => hook.requests.filter((request) => request.answered === 200);
      // How long 1,000 deliveries take depends on the machine (80 to 90 s on a busy two-core machine, against the
      // 90 s this wait once allowed); what must hold is that they keep arriving until all are acknowledged. The test
      // timeout is only a backstop.
      await hook.waitFor(() => acknowledged().length >= EVENTS, 30_000, { idle: true });
      await sleep(1_000); // a duplicate acknowledgement would arrive here

      const acks = new Map<string, number>();
      for (const request of acknowledged()) acks.set(request.event.id, (acks.get(request.event.id) ?? 0) + 1);
      expect(acks.size).toBe(EVENTS);
      expect(new Set(emitted)).toEqual(new Set(acks.keys()));
      expect([...acks.values()].every((count) => count === 1)).toBe(true);
      // Each failure was followed by exactly one retry: requests = one success per event + the failures.
      const failed = hook.requests.filter((request) => request.answered === 503).length;
      expect(hook.requests.length).toBe(EVENTS + failed);
      expect(failed / hook.requests.length).toBeGreaterThan(0.4);
      expect(await subscriptionState(context.api, subscription.id)).toMatchObject({ active: true });
      expect(await context.platform.queue.depth('webhooks')).toBe(0);
      expect(await context.platform.queue.depth('webhooks-dlq')).toBe(0);
    } finally {
      await hook.close();
    }
  });
});
