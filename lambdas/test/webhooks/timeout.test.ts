import { describe, expect, it } from 'vitest';
import { usePlatform } from '../support/platform';
import { deliveryLog, emitCompleted, subscribe } from './helpers';
import { startReceiver } from './receiver';

const context = usePlatform({ env: { WEBHOOK_ALLOW_LOCAL: '1', WEBHOOK_RETRY_SCALE: '0.001' } });

describe('webhook delivery timeout', () => {
  it('gives up on a receiver that hangs past 5 s and retries it (the real timeout)', async () => {
    const hook = await startReceiver((_request, index) => (index === 0 ? 'hang' : 200));
    try {
      const subscription = await subscribe(context.api, hook.url);
      const { eventId } = await emitCompleted(context.platform);
      await hook.waitFor((requests) => requests.length === 2, 15_000);
      const [first, second] = hook.requests;
      expect(second!.at - first!.at).toBeGreaterThanOrEqual(5_000 + 120);
      expect(second!.event.id).toBe(eventId);

      const log = await deliveryLog(context.api, subscription.id);
      expect(log).toHaveLength(2);
      expect(log[0]).toMatchObject({ attempt: 2, http_status: 200, success: true });
      expect(log[1]).toMatchObject({ attempt: 1, http_status: null, success: false, error: expect.stringMatching(/timeout.*5 s/) });
      expect(log[1]!.duration_ms).toBeGreaterThanOrEqual(5_000);
      expect(log[1]!.duration_ms).toBeLessThan(6_000);
    } finally {
      await hook.close();
    }
  });
});
