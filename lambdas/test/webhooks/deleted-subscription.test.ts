import { describe, expect, it } from 'vitest';
import { deliveryKey, FIRST_DELIVERY_SEQ, getDelivery } from '../../src/domains/webhooks/delivery-repository';
import { usePlatform } from '../support/platform';
import { emitCompleted, sleep, subscribe } from './helpers';
import { startReceiver } from './receiver';

const context = usePlatform({ env: { WEBHOOK_ALLOW_LOCAL: '1', WEBHOOK_RETRY_SCALE: '0.01' } });

describe('a subscription deleted while a delivery to it waits for its retry', () => {
  it('cancels the retry instead of sending it, though the deliverer read the subscription a moment before', async () => {
    const hook = await startReceiver(() => 503);
    try {
      const subscription = await subscribe(context.api, hook.url);
      const { eventId } = await emitCompleted(context.platform);
      await hook.waitFor((requests) => requests.length === 1);
      // Attempt 2 is due 1.2 s after the failure; the subscription is gone before then.
      expect((await context.api('webhooks/delete/', { body: { webhook_id: subscription.id } })).status).toBe(200);

      const key = deliveryKey(eventId, FIRST_DELIVERY_SEQ);
      const deadline = Date.now() + 20_000;
      let delivery = await getDelivery(context.platform.deps, subscription.id, key);
      while (delivery?.state !== 'cancelled') {
        if (Date.now() > deadline) throw new Error(`delivery still ${delivery?.state} (attempt ${delivery?.attempt})`);
        await sleep(50);
        delivery = await getDelivery(context.platform.deps, subscription.id, key);
      }
      expect(delivery).toMatchObject({ attempt: 2, lastError: 'subscription deleted' });
      expect(hook.requests).toHaveLength(1);
    } finally {
      await hook.close();
    }
  });
});
