import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startPlatform, type RunningPlatform } from '../../src/entries/local/platform';
import { apiClient, newDemoKey } from '../support/platform';
import { deliveryLog, emitCompleted, sleep, subscribe } from './helpers';
import { startReceiver } from './receiver';

// 2 min -> 0.36 s, 10 min -> 1.8 s: both retries fall due while the platform is down.
const SCALE = 0.003;

describe('webhook deliveries across restarts', () => {
  it('loses no delivery when the platform stops and starts again in the middle of the retry schedule', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'webhooks-restart-'));
    const key = newDemoKey();
    const start = () => startPlatform({ dataDir, env: { SERVICE_DEMO_API_KEY: key, WEBHOOK_ALLOW_LOCAL: '1', WEBHOOK_RETRY_SCALE: String(SCALE) } });
    const hook = await startReceiver((_request, index) => (index < 2 ? 500 : 200));
    let platform: RunningPlatform | undefined;
    try {
      platform = await start();
      const subscription = await subscribe(apiClient(platform.apiBaseUrl, key), hook.url);
      const { eventId } = await emitCompleted(platform);

      // Attempt 1 fails; stop while attempt 2 is scheduled, stay down past its due time.
      await hook.waitFor((requests) => requests.length === 1);
      await platform.stop();
      platform = undefined;
      await sleep(600);
      expect(hook.requests).toHaveLength(1);

      // Attempt 2 (overdue) runs after the restart and fails; stop again while attempt 3 is scheduled.
      platform = await start();
      await hook.waitFor((requests) => requests.length === 2);
      await platform.stop();
      platform = undefined;
      await sleep(2_000);
      expect(hook.requests).toHaveLength(2);

      platform = await start();
      await hook.waitFor((requests) => requests.length === 3);
      await sleep(500);
      expect(hook.requests.map((request) => [request.event.id, request.answered])).toEqual([
        [eventId, 500],
        [eventId, 500],
        [eventId, 200],
      ]);
      const log = await deliveryLog(apiClient(platform.apiBaseUrl, key), subscription.id);
      expect(log.map((entry) => [entry.attempt, entry.success])).toEqual([
        [3, true],
        [2, false],
        [1, false],
      ]);
    } finally {
      await platform?.stop();
      await hook.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
