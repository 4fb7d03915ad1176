import { DELIVERED_EVENT_TYPES, SKILL_EVENT_TYPES } from '@service/shared';
import DataLoader from 'dataloader';
import * as z from 'zod';
import type { Deps } from '../../infra/deps';
import type { QueueSender } from '../../infra/queue/queue';
import { newDelivery, putDelivery, seqOf, type StoredDelivery } from './delivery-repository';
import type { PlatformEvent } from './events';
import { enqueueWakeUp } from './schedule';

const PLATFORM_EVENTS = new Set<string>([...DELIVERED_EVENT_TYPES, ...SKILL_EVENT_TYPES]);

/** A delivery's first attempt as it rides on a queue message: its record is stored once that attempt is settled. */
const FirstAttempt = z.object({
  workspaceId: z.string(),
  subscriptionId: z.string(),
  eventId: z.string(),
  event: z.custom<PlatformEvent>((value) => typeof value === 'string' && PLATFORM_EVENTS.has(value)),
  payload: z.string(),
  seq: z.string(),
  createdAt: z.string().datetime(),
});
type FirstAttempt = z.infer<typeof FirstAttempt>;

/** The `webhooks` queue message that carries the first attempts of the deliveries started together. */
export const FirstAttemptsMessage = z.object({ firstAttempts: z.array(FirstAttempt).min(1) });
export type FirstAttemptsMessage = z.infer<typeof FirstAttemptsMessage>;

/** At most this many first attempts share a message (a deliverer sends a message's attempts all at once). */
const MAX_ATTEMPTS_PER_MESSAGE = 50;
/**
 * Payload characters a message carries at most: inside SQS's 256 KB even if every one took three bytes of UTF-8. A
 * larger payload is stored before its first attempt instead.
 */
const MAX_CARRIED_CHARS = 64 * 1024;

/** The delivery a carried first attempt stands for, as it was when it was started. */
export function deliveryOf(first: FirstAttempt): StoredDelivery {
  return newDelivery(new Date(first.createdAt), first);
}

/** Sends each group of first attempts as one message; a group's callers hear of its failure, the others do not. */
async function sendGrouped(queue: QueueSender, attempts: readonly FirstAttempt[]): Promise<Array<void | Error>> {
  const groups: FirstAttempt[][] = [];
  let chars = Infinity;
  for (const first of attempts) {
    if (chars + first.payload.length > MAX_CARRIED_CHARS || groups.at(-1)!.length >= MAX_ATTEMPTS_PER_MESSAGE) {
      groups.push([]);
      chars = 0;
    }
    groups.at(-1)!.push(first);
    chars += first.payload.length;
  }
  const sent = await Promise.all(
    groups.map((firstAttempts) =>
      queue.send('webhooks', { firstAttempts } satisfies FirstAttemptsMessage).then(
        () => firstAttempts.map((): void | Error => undefined),
        (error: unknown) => firstAttempts.map(() => (error instanceof Error ? error : new Error(String(error)))),
      ),
    ),
  );
  return sent.flat();
}

/** First attempts started in one turn of the event loop go out together (events emitted at once), per queue sender. */
const carriers = new WeakMap<QueueSender, DataLoader<FirstAttempt, void>>();

function carrier(queue: QueueSender): DataLoader<FirstAttempt, void> {
  let loader = carriers.get(queue);
  if (!loader) {
    loader = new DataLoader<FirstAttempt, void>((attempts) => sendGrouped(queue, attempts), { cache: false, batchScheduleFn: (send) => setImmediate(send) });
    carriers.set(queue, loader);
  }
  return loader;
}

/**
 * Starts new deliveries: once this resolves, each is on the durable queue and none can be lost. A delivery's first
 * attempt rides on a queue message shared with the others started at the same time, and its record is written when
 * that attempt is settled (so one store write and one queue message serve many deliveries). A payload too large to
 * carry is stored first and woken up on its own; a repeated start of a stored delivery (same event id, after a crash)
 * then enqueues its wake-up again (harmless: the attempt claim lets only one through).
 */
export async function startDeliveries(deps: Deps, deliveries: StoredDelivery[]): Promise<void> {
  await Promise.all(
    deliveries.map(async (delivery) => {
      if (delivery.payload.length <= MAX_CARRIED_CHARS) {
        const { workspaceId, subscriptionId, eventId, event, payload, createdAt } = delivery;
        return carrier(deps.queue).load({ workspaceId, subscriptionId, eventId, event, payload, seq: seqOf(delivery), createdAt });
      }
      const stored = await putDelivery(deps, delivery);
      if (stored.state === 'pending' && stored.attempt === 1) await enqueueWakeUp(deps, stored);
    }),
  );
}
