import { PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { SQSEvent, SQSRecord } from 'aws-lambda';
import { randomUUID } from 'node:crypto';
import { writeAll, type WriteRequest } from '../store/batch-write';
import type { Store } from '../store/dynamo';
import type { QueueConsumer, QueueName } from './queue';
import { logger } from '../logger';

/**
 * A durable work queue kept in the embedded DynamoDB, with SQS semantics: per-message delays, a visibility timeout
 * while a consumer works, redelivery when it fails or the process dies, and a dead-letter queue after maxReceiveCount.
 * Messages are sorted by the time they become visible, so a poll is one Query; its claims, like the deletions of a
 * handled batch, are batched writes, so the queue costs a fraction of a store call per message (as SQS's ReceiveMessage
 * and DeleteMessageBatch take ten at a time). Like a long-polling receiver it does not poll an idle queue: a send, the
 * end of a batch when messages were left for lack of room, or the time a delayed or hidden message becomes visible
 * wakes the queue it concerns.
 */
interface StoredMessage {
  queue: string;
  sk: string;
  id: string;
  body: string;
  receiveCount: number;
  sentAt: number;
}

export interface LocalQueueOptions<Name extends string = QueueName> {
  visibilityTimeoutMs?: Partial<Record<Name, number>>;
  /** Most messages handed to a consumer in one event (an event source mapping's BatchSize); default 1. */
  batchSize?: Partial<Record<Name, number>>;
  maxReceiveCount?: number;
  concurrency?: number;
}

const sortKey = (visibleAt: number, id: string) => `${String(visibleAt).padStart(15, '0')}#${id}`;
const visibleAtOf = (sk: string) => Number(sk.slice(0, 15));

/**
 * The longest an idle queue goes without looking. Every message of this process wakes the queue when it becomes
 * visible: a send at once or when its delay ends, a handled batch's failures when their visibility timeout ends. So
 * this finds only what an earlier process left stored (the data folder is locked to one process at a time).
 */
const IDLE_RECHECK_MS = 1_000;

/** A QueueSender (structurally) for the platform's queues; the bundled platform names its queues by their SQS ids. */
export class LocalQueue<Name extends string = QueueName> {
  private readonly consumers = new Map<Name, QueueConsumer>();
  private readonly inFlight = new Set<Promise<void>>();
  /** When each queue is to be polled next (epoch ms): the timer is set for the earliest, unless a poll is under way. */
  private readonly pollAt = new Map<Name, number>();
  private timer: NodeJS.Timeout | undefined;
  private timerAt = Infinity;
  /** Queues whose last poll left visible messages unclaimed (no capacity, or a full page): a finished batch polls them. */
  private readonly leftBehind = new Set<Name>();
  private running = false;
  /** The poll under way, so stop() can wait for it before the store closes. */
  private poll: Promise<void> | undefined;

  constructor(
    private readonly store: Store,
    private readonly options: LocalQueueOptions<Name> = {},
  ) {}

  async send(queue: Name, body: unknown, options: { delaySeconds?: number } = {}): Promise<void> {
    await this.sendSerialized(queue, JSON.stringify(body), options.delaySeconds);
  }

  /** Enqueues a message body as it is (an SQS MessageBody); answers its message id. */
  async sendSerialized(queue: Name, body: string, delaySeconds = 0): Promise<string> {
    const id = randomUUID();
    const visibleAt = Date.now() + Math.max(0, delaySeconds * 1000);
    await this.store.doc.send(
      new PutCommand({
        TableName: this.table,
        Item: { queue, sk: sortKey(visibleAt, id), id, body, receiveCount: 0, sentAt: Date.now() } satisfies StoredMessage,
      }),
    );
    this.wake(queue, visibleAt);
    return id;
  }

  consume(queue: Name, consumer: QueueConsumer): void {
    this.consumers.set(queue, consumer);
    this.wake(queue, Date.now());
  }

  start(): void {
    this.running = true;
    for (const queue of this.consumers.keys()) this.wake(queue, Date.now());
  }

  /** Stops polling and waits for the handlers at work; unfinished messages reappear after their visibility timeout. */
  async stop(): Promise<void> {
    this.running = false;
    clearTimeout(this.timer);
    this.timerAt = Infinity;
    this.pollAt.clear();
    await this.poll;
    await Promise.allSettled([...this.inFlight]);
  }

  /** Messages waiting in a queue (visible or delayed); for tests and the dead-letter view. */
  async depth(queue: string): Promise<number> {
    const result = await this.store.doc.send(
      new QueryCommand({
        TableName: this.table,
        KeyConditionExpression: '#q = :q',
        ExpressionAttributeNames: { '#q': 'queue' },
        ExpressionAttributeValues: { ':q': queue },
        Select: 'COUNT',
      }),
    );
    return result.Count ?? 0;
  }

  private get table() {
    return this.store.table('localQueue');
  }

  /** Polls `queue` at `at` (epoch ms), unless it is to be polled sooner. */
  private wake(queue: Name, at: number): void {
    if (!this.running || !this.consumers.has(queue) || (this.pollAt.get(queue) ?? Infinity) <= at) return;
    this.pollAt.set(queue, at);
    // A poll under way sets the timer when it ends: it may have looked before this message was stored.
    if (!this.poll) this.setTimer();
  }

  private setTimer(): void {
    const at = Math.min(...this.pollAt.values());
    if (at >= this.timerAt) return;
    clearTimeout(this.timer);
    this.timerAt = at;
    this.timer = setTimeout(
      () => {
        this.timerAt = Infinity;
        const now = Date.now();
        const queues = [...this.pollAt].filter(([, at]) => at <= now).map(([queue]) => queue);
        for (const queue of queues) this.pollAt.delete(queue);
        this.poll = this.pollQueues(queues).finally(() => {
          this.poll = undefined;
          this.setTimer();
        });
      },
      Math.max(0, at - Date.now()),
    );
  }

  /** Claims and hands out what is visible in `queues`, and sets when each is polled next. */
  private async pollQueues(queues: Name[]): Promise<void> {
    for (const queue of queues) {
      this.wake(queue, (await this.pollQueue(queue)) ? Date.now() : Date.now() + IDLE_RECHECK_MS);
    }
  }

  /** Claims and hands out what is visible in `queue`: true when a full page was taken, so more may be visible. */
  private async pollQueue(queue: Name): Promise<boolean> {
    const capacity = (this.options.concurrency ?? 16) - this.inFlight.size;
    if (capacity <= 0 || !this.running) {
      // No room: the next batch that ends polls it again.
      this.leftBehind.add(queue);
      return false;
    }
    let full = false;
    try {
      const batchSize = this.options.batchSize?.[queue] ?? 1;
      const due = await this.due(queue, capacity * batchSize);
      const claimed = await this.claim(due);
      for (let start = 0; start < claimed.length; start += batchSize) {
        const work = this.deliver(queue, this.consumers.get(queue)!, claimed.slice(start, start + batchSize)).finally(() => {
          this.inFlight.delete(work);
          for (const waiting of this.leftBehind) this.wake(waiting, Date.now());
        });
        this.inFlight.add(work);
      }
      full = due.length === capacity * batchSize;
    } catch (error) {
      if (this.running) logger.error('local queue poll failed', { queue, error });
    }
    if (full) this.leftBehind.add(queue);
    else this.leftBehind.delete(queue);
    return full;
  }

  private async due(queue: string, limit: number): Promise<StoredMessage[]> {
    const result = await this.store.doc.send(
      new QueryCommand({
        TableName: this.table,
        KeyConditionExpression: '#q = :q AND sk <= :now',
        ExpressionAttributeNames: { '#q': 'queue' },
        ExpressionAttributeValues: { ':q': queue, ':now': `${String(Date.now()).padStart(15, '0')}#~` },
        Limit: limit,
      }),
    );
    return (result.Items ?? []) as StoredMessage[];
  }

  /**
   * Hides the messages for their visibility timeout (or dead-letters them): each is moved to the sort key of the time
   * it becomes visible again, its receive count raised. Polls of one queue run one at a time, so no other poller claims
   * the same copy; a handler's deletion racing the claim of a message whose visibility ran out leaves the new copy,
   * which comes back later, as SQS does when a message is deleted with an earlier receipt handle.
   */
  private async claim(messages: StoredMessage[]): Promise<StoredMessage[]> {
    const maxReceive = this.options.maxReceiveCount ?? 5;
    const moves = messages.map((message) => ({
      message,
      moved:
        message.receiveCount >= maxReceive
          ? { ...message, queue: `${message.queue}-dlq`, sk: sortKey(Date.now(), message.id) }
          : {
              ...message,
              sk: sortKey(Date.now() + (this.options.visibilityTimeoutMs?.[message.queue as Name] ?? 30_000), message.id),
              receiveCount: message.receiveCount + 1,
            },
    }));
    // Every new copy is stored before any old one is deleted (a batch's writes land in no set order): a crash in between
    // leaves a message twice, never lost.
    await this.write(moves.map(({ moved }) => ({ PutRequest: { Item: moved } })));
    await this.write(moves.map(({ message }) => ({ DeleteRequest: { Key: { queue: message.queue, sk: message.sk } } })));
    const claimed: StoredMessage[] = [];
    for (const { message, moved } of moves) {
      if (moved.queue === message.queue) claimed.push(moved);
      else logger.error('local queue: message dead-lettered', { messageId: message.id, deadLetterQueue: moved.queue, receiveCount: message.receiveCount });
    }
    return claimed;
  }

  private async deliver(queue: Name, consumer: QueueConsumer, messages: StoredMessage[]): Promise<void> {
    try {
      const response = await consumer(toSqsEvent(queue, messages));
      const failed = new Set(response?.batchItemFailures?.map((failure) => failure.itemIdentifier));
      await this.write(
        messages.filter((message) => !failed.has(message.id)).map((message) => ({ DeleteRequest: { Key: { queue: message.queue, sk: message.sk } } })),
      );
      this.wakeWhenVisible(
        queue,
        messages.filter((message) => failed.has(message.id)),
      );
    } catch (error) {
      // Left hidden: it comes back after the visibility timeout, as on SQS.
      logger.error('local queue: consumer threw', { queue, error });
      this.wakeWhenVisible(queue, messages);
    }
  }

  /** Claimed messages left hidden come back when their visibility timeout ends (their sort key's time). */
  private wakeWhenVisible(queue: Name, messages: StoredMessage[]): void {
    if (messages.length > 0) this.wake(queue, Math.min(...messages.map((message) => visibleAtOf(message.sk))));
  }

  private write(requests: WriteRequest[]): Promise<void> {
    return writeAll(this.store, this.table, requests);
  }
}

type SqsEventMessage = Pick<StoredMessage, 'id' | 'sk' | 'body' | 'receiveCount' | 'sentAt'>;

/** The SQS event the queue's event source mapping hands its consumer for a batch of messages. */
export function toSqsEvent(queue: string, messages: SqsEventMessage[]): SQSEvent {
  return { Records: messages.map((message) => toSqsRecord(queue, message)) };
}

function toSqsRecord(queue: string, message: SqsEventMessage): SQSRecord {
  return {
    messageId: message.id,
    receiptHandle: message.sk,
    body: message.body,
    attributes: {
      ApproximateReceiveCount: String(message.receiveCount),
      SentTimestamp: String(message.sentAt),
      SenderId: 'local',
      ApproximateFirstReceiveTimestamp: String(Date.now()),
    },
    messageAttributes: {},
    md5OfBody: '',
    eventSource: 'aws:sqs',
    eventSourceARN: `arn:aws:sqs:local:000000000000:${queue}`,
    awsRegion: 'local',
  };
}
