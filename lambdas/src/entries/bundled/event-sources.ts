import type { SQSBatchResponse } from 'aws-lambda';
import { randomUUID } from 'node:crypto';
import { logger } from '../../infra/logger';
import { LocalQueue } from '../../infra/queue/local';
import type { Store } from '../../infra/store/dynamo';
import { LOCAL_REGION, idOfArn, propertiesOf, resourcesOfType, type ResolvedStack } from './cloudformation';
import type { FunctionOf } from './front-doors';
import type { LambdaFunction } from './lambda-function';

interface EventSourceMapping {
  EventSourceArn: string;
  FunctionName: string;
  BatchSize?: number;
  FunctionResponseTypes?: string[];
}

export interface StackQueues {
  /** SQS queue id (logical id) -> its messages, durable in the emulator's tables. */
  queue: LocalQueue<string>;
  queueIds: Set<string>;
  /** Hands each queue's messages to the function its event source mapping names, and starts polling. */
  startConsumers(fn: FunctionOf): void;
  stop(): Promise<void>;
}

/** The template's SQS queues (with their visibility timeouts) and event source mappings (with their batch sizes). */
export function stackQueues(stack: ResolvedStack, store: Store): StackQueues {
  const queueIds = new Set(resourcesOfType(stack, 'AWS::SQS::Queue').map(([id]) => id));
  const mappings = resourcesOfType(stack, 'AWS::Lambda::EventSourceMapping').map(([, mapping]) => propertiesOf<EventSourceMapping>(mapping));
  const queue = new LocalQueue<string>(store, {
    visibilityTimeoutMs: Object.fromEntries(
      resourcesOfType(stack, 'AWS::SQS::Queue').map(([id, q]) => [id, Number(q.Properties.VisibilityTimeout ?? 30) * 1000]),
    ),
    batchSize: Object.fromEntries(mappings.map((mapping) => [idOfArn(mapping.EventSourceArn), mapping.BatchSize ?? 10])),
  });
  return {
    queue,
    queueIds,
    startConsumers: (fn) => {
      for (const mapping of mappings) {
        const consumer = fn(mapping.FunctionName);
        queue.consume(idOfArn(mapping.EventSourceArn), async (event) => {
          const response = (await consumer.invoke(event)) as SQSBatchResponse | undefined;
          return mapping.FunctionResponseTypes?.includes('ReportBatchItemFailures') ? response : undefined;
        });
      }
      queue.start();
    },
    stop: () => queue.stop(),
  };
}

export interface StackSchedules {
  /** Invokes every scheduled function once now: each one's result by function id. */
  fireAll(): Promise<Record<string, unknown>>;
  stop(): void;
}

/** Invokes each function an EventBridge rule targets at the rule's rate, as EventBridge would. */
export function startSchedules(stack: ResolvedStack, fn: FunctionOf): StackSchedules {
  const scheduled = resourcesOfType(stack, 'AWS::Events::Rule').flatMap(([, rule]) => {
    const { ScheduleExpression, Targets = [] } = propertiesOf<{ ScheduleExpression?: string; Targets?: { Arn: string }[] }>(rule);
    // CloudFormation writes a rate in its largest whole unit: `rate(5 minutes)`, `rate(1 hour)`.
    const every = /^rate\((\d+) (minute|hour)s?\)$/.exec(ScheduleExpression ?? '');
    return every ? Targets.map((target) => ({ fn: fn(target.Arn), everyMs: Number(every[1]) * (every[2] === 'hour' ? 3_600_000 : 60_000) })) : [];
  });
  const invoke = (target: LambdaFunction) => target.invoke(scheduledEvent());
  const timers = scheduled.map((schedule) => {
    const timer = setInterval(
      () => void invoke(schedule.fn).catch((error: unknown) => logger.error('scheduled function failed', { function: schedule.fn.spec.id, error })),
      schedule.everyMs,
    );
    timer.unref();
    return timer;
  });
  return {
    fireAll: async () => Object.fromEntries(await Promise.all(scheduled.map(async (schedule) => [schedule.fn.spec.id, await invoke(schedule.fn)] as const))),
    stop: () => timers.forEach((timer) => clearInterval(timer)),
  };
}

const scheduledEvent = () => ({
  version: '0',
  id: randomUUID(),
  'detail-type': 'Scheduled Event',
  source: 'aws.events',
  time: new Date().toISOString(),
  region: LOCAL_REGION,
  resources: [],
  detail: {},
});
