import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { newRunId } from '@service/shared';
import { verify } from '@service/webhooks';
import { startPlatform } from '../lambdas/src/entries/local/platform';
import { emitEvent } from '../lambdas/src/domains/webhooks/emit';
import { createWebhookSender } from '../lambdas/src/domains/webhooks/send';
import { createSubscription } from '../lambdas/src/domains/webhooks/subscriptions';

/** A loopback receiver that verifies every signature and notes when each event arrived. */
async function startVerifyingReceiver() {
  let secret = '';
  const arrivals = new Map<string, number>();
  let rejected = 0;
  const waiters: Array<() => void> = [];
  const server = createServer((req: IncomingMessage, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      try {
        const event = verify(Buffer.concat(chunks), req.headers['x-service-signature'] as string | undefined, secret);
        arrivals.set(event.id, performance.now());
        res.writeHead(204).end();
      } catch {
        rejected += 1;
        res.writeHead(400).end();
      }
      for (const wake of waiters.splice(0)) wake();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    /** The subscription's signing secret, known once it is created with this receiver's URL. */
    useSecret: (value: string) => (secret = value),
    arrivals,
    rejected: () => rejected,
    async until(count: number, timeoutMs: number) {
      const deadline = Date.now() + timeoutMs;
      while (arrivals.size < count) {
        if (Date.now() > deadline) throw new Error(`only ${arrivals.size} of ${count} deliveries arrived within ${timeoutMs} ms`);
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, 100);
        });
      }
    },
    close: () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
  };
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;

function summary(label: string, count: number, seconds: number, latencies: number[]): string {
  const sorted = [...latencies].sort((a, b) => a - b);
  return `${label}: ${(count / seconds).toFixed(0)}/s over ${count}, latency p50 ${percentile(sorted, 50).toFixed(1)} ms, p99 ${percentile(sorted, 99).toFixed(1)} ms`;
}

/**
 * Signed webhook deliveries per second to a loopback receiver that verifies each signature:
 * - end to end on the local platform (emit -> delivery record -> durable queue -> deliverer -> receiver), all emitted
 *   at once (latency includes the wait in the queue), then one at a time (latency of a lone delivery);
 * - the sender alone (sign + POST through the outbound guard), 16 at a time.
 * Returns printable lines.
 */
export async function benchWebhooks(options: { deliveries?: number } = {}): Promise<string[]> {
  const count = options.deliveries ?? 500;
  const platform = await startPlatform({ env: { WEBHOOK_ALLOW_LOCAL: '1', WEBHOOK_RETRY_SCALE: '0.001' } });
  const lines: string[] = [];
  try {
    const workspaceId = platform.demo.workspaceId;
    const receiver = await startVerifyingReceiver();
    const subscription = await createSubscription(platform.deps, workspaceId, { url: receiver.url, events: ['agent.command.completed'] });
    receiver.useSecret(subscription.signingSecret);
    try {
      const emittedAt = new Map<string, number>();
      const started = performance.now();
      for (let batch = 0; batch < count; batch += 50) {
        await Promise.all(
          Array.from({ length: Math.min(50, count - batch) }, async () => {
            const at = performance.now();
            const data = { run_id: newRunId(), agent_id: platform.demo.agentId, agent_name: 'Support', status: 'completed', instruction: 'bench', result_text: 'ok', steps_count: 5 };
            const { eventId } = await emitEvent(platform.deps, workspaceId, 'agent.command.completed', data);
            emittedAt.set(eventId, at);
          }),
        );
      }
      await receiver.until(count, 300_000);
      const seconds = (Math.max(...receiver.arrivals.values()) - started) / 1000;
      const latencies = [...receiver.arrivals].map(([id, at]) => at - (emittedAt.get(id) ?? at));
      lines.push(summary('webhooks end to end (local platform, durable queue)', count, seconds, latencies));

      // One at a time: the latency of a single delivery when nothing queues in front of it.
      const single: number[] = [];
      for (let i = 0; i < 30; i += 1) {
        const at = performance.now();
        const data = { run_id: newRunId(), agent_id: platform.demo.agentId, agent_name: 'Support', status: 'completed', instruction: 'bench', result_text: 'ok', steps_count: 5 };
        await emitEvent(platform.deps, workspaceId, 'agent.command.completed', data);
        await receiver.until(count + i + 1, 30_000);
        single.push(performance.now() - at);
      }
      lines.push(summary('webhooks one at a time (emit to arrival)', single.length, single.reduce((a, b) => a + b, 0) / 1000, single));

      const sender = createWebhookSender({ allowLocal: true });
      const payloads = Array.from({ length: count }, (_, i) => JSON.stringify({ id: `evt_bench${String(i).padStart(16, '0')}`, event: 'agent.command.completed', created_at: new Date().toISOString(), data: {} }));
      const sendLatencies: number[] = [];
      const sendStarted = performance.now();
      let next = 0;
      await Promise.all(
        Array.from({ length: 16 }, async () => {
          while (next < payloads.length) {
            const index = next++;
            const payload = payloads[index]!;
            const at = performance.now();
            const result = await sender.send({ url: receiver.url, id: `evt_bench${String(index).padStart(16, '0')}`, event: 'agent.command.completed', payload, signingSecret: subscription.signingSecret, signedAt: new Date() });
            if (!result.ok) throw new Error(`bench delivery failed: ${result.error}`);
            sendLatencies.push(performance.now() - at);
          }
        }),
      );
      lines.push(summary('webhook sender alone (sign + guarded POST, 16 concurrent)', count, (performance.now() - sendStarted) / 1000, sendLatencies));
      sender.close();
      if (receiver.rejected() > 0) lines.push(`webhooks: ${receiver.rejected()} deliveries failed verification`);
    } finally {
      await receiver.close();
    }
  } finally {
    await platform.stop();
  }
  return lines;
}
