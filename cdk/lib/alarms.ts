import { Duration } from 'aws-cdk-lib';
import { ComparisonOperator, TreatMissingData, type Metric } from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import { ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Key } from 'aws-cdk-lib/aws-kms';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { EmailSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';

/**
 * A webhook message older than this is a backlog: a retry waits at most 15 minutes per SQS hop before it becomes
 * visible, so twice that means the deliverer is not keeping up (or not running).
 */
export const WEBHOOK_BACKLOG_SECONDS = 1_800;

export interface PlatformAlarmsProps {
  /** Construct id -> function: each gets an Errors and a Throttles alarm. */
  functions: ReadonlyMap<string, IFunction>;
  /** Name -> dead-letter queue: any visible message there is a lost unit of work. */
  deadLetterQueues: Readonly<Record<string, IQueue>>;
  /** The webhook deliveries queue, watched for the age of its oldest message. */
  webhookQueue: IQueue;
  /** Subscribes this address to the alarm topic (the operator confirms the e-mail AWS sends). */
  alarmEmail?: string;
}

/**
 * What tells an operator that something was lost or is stuck: alarms on every dead-letter queue, on each function's
 * errors and throttles, and on the webhook backlog, all sending to one SNS topic. The topic is encrypted with its
 * own key, which CloudWatch may use to publish.
 */
export class PlatformAlarms extends Construct {
  readonly topic: Topic;
  private readonly action: SnsAction;

  constructor(scope: Construct, id: string, props: PlatformAlarmsProps) {
    super(scope, id);
    const key = new Key(this, 'TopicKey', { enableKeyRotation: true, description: 'Encrypts the operator alarm topic' });
    key.grant(new ServicePrincipal('cloudwatch.amazonaws.com'), 'kms:Decrypt', 'kms:GenerateDataKey');
    this.topic = new Topic(this, 'Topic', { displayName: 'Service platform alarms', masterKey: key, enforceSSL: true });
    if (props.alarmEmail) this.topic.addSubscription(new EmailSubscription(props.alarmEmail));
    this.action = new SnsAction(this.topic);

    for (const [name, queue] of Object.entries(props.deadLetterQueues)) {
      this.alarm(
        `${name}DeadLetters`,
        queue.metricApproximateNumberOfMessagesVisible({ statistic: 'Maximum', period: Duration.minutes(1) }),
        0,
        `Messages in the ${name} dead-letter queue: work that failed every retry; inspect and redrive them`,
      );
    }
    for (const [name, fn] of props.functions) {
      this.alarm(`${name}Errors`, fn.metricErrors({ statistic: 'Sum', period: Duration.minutes(5) }), 0, `The ${name} function failed invocations`);
      this.alarm(`${name}Throttles`, fn.metricThrottles({ statistic: 'Sum', period: Duration.minutes(5) }), 0, `The ${name} function was throttled`);
    }
    this.alarm(
      'WebhookBacklog',
      props.webhookQueue.metricApproximateAgeOfOldestMessage({ statistic: 'Maximum', period: Duration.minutes(5) }),
      WEBHOOK_BACKLOG_SECONDS,
      `A webhook delivery has waited over ${WEBHOOK_BACKLOG_SECONDS / 60} minutes: the deliverer is behind or down`,
    );
  }

  /** Alarms when the metric is above the threshold for one period; no data (an idle queue or function) is fine. */
  private alarm(id: string, metric: Metric, threshold: number, description: string): void {
    metric
      .createAlarm(this, id, {
        threshold,
        comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
        evaluationPeriods: 1,
        treatMissingData: TreatMissingData.NOT_BREACHING,
        alarmDescription: description,
      })
      .addAlarmAction(this.action);
  }
}
