import * as z from 'zod';
import type { Deps } from '../../infra/deps';
import { SQS_MAX_DELAY_SECONDS } from '../../infra/queue/queue';
import type { StoredDelivery } from './delivery-repository';

/** Spec: 5 attempts, retried after 2 min, 10 min, 30 min and 2 h (scaled by WEBHOOK_RETRY_SCALE). */
export const MAX_ATTEMPTS = 5;
export const RETRY_DELAYS_SECONDS = [120, 600, 1800, 7200] as const;

/** When the attempt after `failedAttempt` is due, or undefined when that was the last one. */
export function nextAttemptDueAt(failedAttempt: number, failedAt: Date, scale: number): number | undefined {
  const delay = RETRY_DELAYS_SECONDS[failedAttempt - 1];
  if (failedAttempt >= MAX_ATTEMPTS || delay === undefined) return undefined;
  return failedAt.getTime() + delay * 1000 * scale;
}

/** The message on the `webhooks` queue: a wake-up for one attempt of one delivery, carrying when it is due. */
export const WakeUpMessage = z.object({
  workspaceId: z.string(),
  subscriptionId: z.string(),
  deliveryId: z.string(),
  attempt: z.number().int().min(1),
  dueAt: z.number(),
  /** How many early arrivals this wake-up has already been through. */
  hop: z.number().int().min(0).default(0),
});
export type WakeUpMessage = z.infer<typeof WakeUpMessage>;

/**
 * Enqueues the wake-up for a delivery's current attempt. Queue delays are capped (SQS: 900 s), so a far due time
 * arrives early and the consumer sends it on again with the remaining delay: 30 min is 2 hops, 2 h is 8.
 */
export async function enqueueWakeUp(deps: Deps, delivery: StoredDelivery, options: { dueAt?: number; hop?: number } = {}): Promise<void> {
  const dueAt = options.dueAt ?? delivery.dueAt;
  const message: WakeUpMessage = {
    workspaceId: delivery.workspaceId,
    subscriptionId: delivery.subscriptionId,
    deliveryId: delivery.deliveryId,
    attempt: delivery.attempt,
    dueAt,
    hop: options.hop ?? 0,
  };
  const remainingSeconds = (dueAt - deps.now().getTime()) / 1000;
  await deps.queue.send('webhooks', message, { delaySeconds: Math.min(SQS_MAX_DELAY_SECONDS, Math.max(0, remainingSeconds)) });
}
