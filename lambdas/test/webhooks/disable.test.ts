import { describe, expect, it } from 'vitest';
import { usePlatform } from '../support/platform';
import { deliveryLog, emitCompleted, sleep, subscribe, subscriptionState } from './helpers';
import { startReceiver } from './receiver';

const context = usePlatform({ env: { WEBHOOK_ALLOW_LOCAL: '1', WEBHOOK_RETRY_SCALE: '0.001' } });

describe('webhook auto-disable', () => {
  it('disables a subscription after 20 consecutive failures and stops delivering to it', async () => {
    const hook = await startReceiver(() => 500);
    try {
      const subscription = await subscribe(context.api, hook.url);
      // 7 events x 5 attempts could make 35 attempts; the 20th failure must end them.
      for (let i = 0; i < 7; i += 1) await emitCompleted(context.platform);

      const deadline = Date.now() + 15_000;
      while ((await subscriptionState(context.api, subscription.id))?.active !== false) {
        if (Date.now() > deadline) throw new Error(`still active after ${hook.requests.length} failed attempts`);
        await sleep(50);
      }
      const state = await subscriptionState(context.api, subscription.id);
      expect(state!.failure_count).toBeGreaterThanOrEqual(20);
      expect(Date.parse(state!.disabled_at!)).not.toBeNaN();

      // Attempts already in flight when the 20th failure landed may finish; nothing is sent after that,
      // although attempts 4 (due 1.8 s later) and 5 were still scheduled.
      await sleep(500);
      const settled = hook.requests.length;
      expect(settled).toBeGreaterThanOrEqual(20);
      expect(settled).toBeLessThan(20 + 7);
      await sleep(2_500);
      expect(hook.requests.length).toBe(settled);
      expect(await deliveryLog(context.api, subscription.id)).toHaveLength(settled);

      // New events are not delivered to a disabled subscription.
      expect((await emitCompleted(context.platform)).deliveries).toBe(0);
      const redeliver = await context.api('webhooks/redeliver', { body: { webhook_id: subscription.id, event_id: hook.requests[0]!.event.id } });
      expect(redeliver.status).toBe(400);
      expect(redeliver.body.msg).toMatch(/disabled/);
    } finally {
      await hook.close();
    }
  });
});
