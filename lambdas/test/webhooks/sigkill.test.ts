import { describe, expect, it, vi } from 'vitest';
import { FIRST_ATTEMPTS_LEASE_MS } from '../../src/domains/webhooks/deliverer';
import { crashThenRestart } from '../support/crash-platform';
import { deliveryLog, subscribe } from './helpers';
import { startReceiver } from './receiver';

// Local receivers; 2 min -> 0.12 s, so the retry is due at once after the restart.
const ENV = { WEBHOOK_ALLOW_LOCAL: '1', WEBHOOK_RETRY_SCALE: '0.001' };

describe('first attempts when the deliverer is killed with SIGKILL', () => {
  it('neither sends a delivered attempt again nor loses the retry of a failed one, once the message comes back', async () => {
    const accepting = await startReceiver();
    const flaky = await startReceiver((_request, index) => (index === 0 ? 500 : 204));
    try {
      const subscriptions: Record<string, string> = {};
      await crashThenRestart(
        // One event, two deliveries on one queue message: one delivered, one failed. Their records and log entries land,
        // then the process dies before it enqueues the failed one's next attempt and before the message is deleted.
        { ...ENV, CRASH_AFTER: 'BatchWriteCommand:webhook-deliveries' },
        // Restarted once the dead sender's lease has run out.
        { ...ENV, CLOCK_SHIFT_MS: String(FIRST_ATTEMPTS_LEASE_MS) },
        async (api, agentId) => {
          subscriptions.accepting = (await subscribe(api, accepting.url)).id;
          subscriptions.flaky = (await subscribe(api, flaky.url)).id;
          expect((await api('agents/command/', { body: { agent_id: agentId, instruction: 'What does it cost?' } })).status).toBe(202);
        },
        // After its visibility timeout the message comes back to the restarted platform.
        async (api) => {
          await flaky.waitFor((requests) => requests.length === 2, 60_000);
          expect(flaky.requests.map((request) => request.answered)).toEqual([500, 204]);
          expect(flaky.requests[1]!.event.id).toBe(flaky.requests[0]!.event.id);
          // The redelivered message re-enqueued the retry after it found both records, so a resend would be out by now.
          expect(accepting.requests).toHaveLength(1);
          expect(accepting.requests[0]!.event.id).toBe(flaky.requests[0]!.event.id);
          await vi.waitFor(async () =>
            expect((await deliveryLog(api, subscriptions.flaky!)).map((entry) => [entry.attempt, entry.success])).toEqual([
              [2, true],
              [1, false],
            ]),
          );
          expect((await deliveryLog(api, subscriptions.accepting!)).map((entry) => [entry.attempt, entry.success])).toEqual([[1, true]]);
        },
      );
    } finally {
      await Promise.all([accepting.close(), flaky.close()]);
    }
  }, 120_000);
});
