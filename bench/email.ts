import { randomBase62 } from '@service/shared';
import { createTransport, type Transporter } from 'nodemailer';
import { performance } from 'node:perf_hooks';
import { findAgentById } from '../lambdas/src/domains/agents/agents';
import { startPlatform, type RunningPlatform } from '../lambdas/src/entries/local/platform';
import { AWS_PRICES } from './aws-prices';
import { billLines, formatBill, type MeasuredUsage } from './cost-bill';
import { meterDynamo } from './cost-dynamo-meter';
import { InvocationLog, lambdaUsage, sqsRequests, throughHttpApi } from './cost';
import { startDynaliteProcess } from './dynalite-process';
import { say, visitorAddress } from './inbox';
import { measure, type Figures } from './measure';

/** DNS as mailauth asks it, offline: no record exists (each verdict `none`), so no lookup leaves the machine. */
const noDns = async (): Promise<never> => {
  throw Object.assign(new Error('no such record'), { code: 'ENOTFOUND' });
};

const IN_FLIGHT = [1, 10, 100] as const;
const MAILS_AT = { 1: 30, 10: 100, 100: 200 } as const;
const MINUTE_MAILS = 1000;
const WIDGET_CONVERSATIONS = 40;
/** How long a mail's answer is waited for before it counts as unanswered. */
const ANSWER_MS = 300_000;

/**
 * Waits for the agent's answers by the address they go to: the local mailbox tells of each mail the platform sends
 * once the answer is stored and handed to the transport (the reply of a mail is its last step but one).
 */
class Answers {
  private readonly waiting = new Map<string, () => void>();
  readonly answered = new Set<string>();
  delivered(to: string): void {
    this.answered.add(to);
    this.waiting.get(to)?.();
    this.waiting.delete(to);
  }
  of(to: string, timeoutMs: number): Promise<void> {
    if (this.answered.has(to)) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`email bench: no answer to ${to} within ${timeoutMs / 1000} s`)), timeoutMs);
      this.waiting.set(to, () => {
        clearTimeout(timer);
        resolve();
      });
    });
  }
}

let sent = 0;
/** A customer's mail to the agent, each from an address of its own (the per-sender hourly reply limit is per address). */
async function mailOnce(smtp: Transporter, agentEmail: string): Promise<string> {
  sent += 1;
  const from = `customer-${sent}-${randomBase62(6).toLowerCase()}@customer.example`;
  const info = (await smtp.sendMail({ from, to: agentEmail, subject: `Question ${sent}`, text: `Hello, what are your opening hours? (mail ${sent})` })) as {
    response: string;
  };
  if (!info.response.startsWith('250')) throw new Error(`email bench: the mail was answered ${info.response}`);
  return from;
}

const transport = (platform: RunningPlatform, connections: number) =>
  createTransport({
    host: '127.0.0.1',
    port: platform.smtpPort,
    secure: false,
    ignoreTLS: true,
    pool: true,
    maxConnections: connections,
    maxMessages: Infinity,
  });

/** `count` mails, `inFlight` at a time, each timed from its SMTP send to its answer stored. */
async function closedLoop(
  platform: RunningPlatform,
  answers: Answers,
  agentEmail: string,
  inFlight: number,
  count: number,
): Promise<Figures & { unanswered: number }> {
  const smtp = transport(platform, inFlight);
  let unanswered = 0;
  try {
    // A mail unanswered within ANSWER_MS is counted (and timed at ANSWER_MS), never left to stop the section.
    const figures = await measure(`mail, ${inFlight} in flight`, count, inFlight, async () =>
      answers.of(await mailOnce(smtp, agentEmail), ANSWER_MS).catch(() => void (unanswered += 1)),
    );
    return { ...figures, unanswered };
  } finally {
    smtp.close();
  }
}

/** 1,000 mails sent at an even pace over one minute; then every one counted stored (250) and answered. */
async function minuteOfMail(platform: RunningPlatform, answers: Answers, agentEmail: string): Promise<string> {
  const smtp = transport(platform, 100);
  const started = performance.now();
  const accepted: string[] = [];
  const refused: string[] = [];
  try {
    await Promise.all(
      Array.from({ length: MINUTE_MAILS }, async (_, index) => {
        const due = started + (index * 60_000) / MINUTE_MAILS;
        await new Promise((resolve) => setTimeout(resolve, Math.max(0, due - performance.now())));
        await mailOnce(smtp, agentEmail).then(
          (from) => accepted.push(from),
          (error: unknown) => refused.push(String(error)),
        );
      }),
    );
    const sentMs = performance.now() - started;
    const settled = await Promise.allSettled(accepted.map((from) => answers.of(from, ANSWER_MS)));
    const answered = settled.filter((result) => result.status === 'fulfilled').length;
    const lastMs = performance.now() - started;
    const lost = MINUTE_MAILS - answered;
    return (
      `1,000 mails in a minute, sent at an even pace over 100 SMTP connections: all accepted after ${(sentMs / 1000).toFixed(1)} s (target 60 s: ${sentMs <= 61_000 ? 'met' : 'NOT met'}), ` +
      `${accepted.length} stored (250), ${refused.length} refused, ${answered} answered, the last ${(lastMs / 1000).toFixed(1)} s after the first was sent: ${lost === 0 ? 'none lost (target met)' : `${lost} lost (target NOT met)`}`
    );
  } finally {
    smtp.close();
  }
}

/** The bill lines the local platform cannot meter: SES receiving, its SNS notification, S3 (the raw mail put by SES, read by InboundMail). */
function mailServiceLines(): { service: string; cost: number; text: string }[] {
  const { sesReceiving, sns, s3 } = AWS_PRICES;
  // The bench's mails are under 1 KB: one 256 KB chunk each.
  const chunks = 1000;
  const line = (service: string, quantity: number, unit: string, price: string, cost: number) => ({
    service,
    cost,
    text: `${service.padEnd(84)} ${`${quantity.toFixed(0)} ${unit}`.padStart(26)}  ${price.padEnd(26)} $${cost.toFixed(5)}`,
  });
  return [
    line('SES receiving (mails)', 1000, 'mails', `$${sesReceiving.perThousandMails} / 1,000 mails`, sesReceiving.perThousandMails),
    line(
      'SES receiving (256 KB chunks: one a mail under 256 KB)',
      chunks,
      'chunks',
      `$${sesReceiving.perThousandChunks} / 1,000 chunks`,
      (chunks / 1000) * sesReceiving.perThousandChunks,
    ),
    line('SNS publish (the receipt notification)', 1000, 'publishes', `$${sns.perMillionPublishes} / M publishes`, (1000 * sns.perMillionPublishes) / 1e6),
    line("S3 PUT (SES's S3 action; attachments: none here)", 1000, 'requests', `$${s3.perThousandPutListPost} / 1,000 requests`, s3.perThousandPutListPost),
    line('S3 GET (InboundMail reads the raw mail)', 1000, 'requests', `$${s3.perThousandGet} / 1,000 requests`, s3.perThousandGet),
  ];
}

const ms = (value: number) => `${value.toFixed(0)} ms`;

/**
 * Inbound mail, real SMTP to the local platform (the offline model): the time from a customer's mail to the agent's
 * answer stored, at 1, 10 and 100 mails in flight, beside the widget's time to a stored answer in the same process;
 * mails a second sustained; 1,000 mails in a minute, every one counted stored and answered; and the AWS bill per
 * 1,000 inbound mails beside the widget's per 1,000 conversations (measured as the commands' bill is, cost.ts).
 */
export async function benchEmail(): Promise<string[]> {
  const key = `sk_live_${randomBase62(40)}`;
  const log = new InvocationLog();
  const answers = new Answers();
  const dynalite = await startDynaliteProcess();
  const platform = await startPlatform({
    port: 0,
    dynamoEndpoint: dynalite.endpoint,
    observer: log,
    mailResolver: noDns,
    onMail: (mail) => answers.delivered(mail.to),
    env: { SERVICE_DEMO_API_KEY: key, RATE_LIMIT_PER_MINUTE: '100000000' },
  });
  try {
    const { config } = platform.deps;
    const meter = meterDynamo(platform.deps.store, { tablePrefix: config.tablePrefix, region: config.region, endpoint: dynalite.endpoint });
    /** What the platform did since the last reset, as AWS bills it, for `count` mails or conversations. */
    const usageOf = (count: number): MeasuredUsage => ({
      commands: count,
      lambda: lambdaUsage(log, meter.imageReads()),
      apiGatewayRequests: log.invocations.filter(throughHttpApi).length,
      sqs: sqsRequests(log),
      dynamo: meter.usage(),
    });
    const agentEmail = (await findAgentById(platform.deps, platform.demo.agentId))!.email;
    // Warm both paths (module loads, the first model call) before anything is timed.
    await closedLoop(platform, answers, agentEmail, 1, 5);
    log.reset();
    meter.reset();
    const widget = await measure('widget', WIDGET_CONVERSATIONS, 1, (index) =>
      say(
        platform,
        { conversationId: crypto.randomUUID(), visitorId: crypto.randomUUID(), address: visitorAddress(index), transcript: [] },
        'Hello, what are your opening hours?',
      ),
    );
    const widgetUsage = usageOf(WIDGET_CONVERSATIONS);

    const lines: string[] = [
      `widget, one visitor at a time (${WIDGET_CONVERSATIONS} conversations): time to the answer stored p50 ${ms(widget.p50Ms)}, p99 ${ms(widget.p99Ms)}`,
    ];
    let sustained = 0;
    let mailUsage: MeasuredUsage | undefined;
    for (const inFlight of IN_FLIGHT) {
      log.reset();
      meter.reset();
      const mail = await closedLoop(platform, answers, agentEmail, inFlight, MAILS_AT[inFlight]);
      sustained = Math.max(sustained, mail.perSecond);
      lines.push(
        `mail, ${String(inFlight).padStart(3)} in flight (${mail.count} mails${mail.unanswered ? `, ${mail.unanswered} unanswered within ${ANSWER_MS / 1000} s` : ''}): time to the answer stored p50 ${ms(mail.p50Ms)}, p99 ${ms(mail.p99Ms)}, ${mail.perSecond.toFixed(1)} mails/s` +
          (inFlight === 1
            ? `; p50 ${(mail.p50Ms / widget.p50Ms).toFixed(2)}x the widget's (target at most 2x: ${mail.p50Ms <= 2 * widget.p50Ms ? 'met' : 'NOT met'})`
            : ''),
      );
      // Billed from the one-at-a-time run: concurrent invocations would each be charged the meter's waits of the others.
      if (inFlight === 1) mailUsage = usageOf(mail.count);
    }
    lines.push(`mails a second sustained (the best of the runs above, each until its last answer): ${sustained.toFixed(1)}`);
    lines.push(await minuteOfMail(platform, answers, agentEmail));

    const serviceLines = mailServiceLines();
    const metered = billLines(mailUsage!, 'mail').reduce((total, line) => total + line.cost, 0);
    const mailTotal = metered + serviceLines.reduce((total, line) => total + line.cost, 0);
    const widgetTotal = billLines(widgetUsage, 'conversation').reduce((total, line) => total + line.cost, 0);
    lines.push(
      '',
      `AWS bill per 1,000 inbound mails (measured over the one-in-flight run: InboundMail's invocations, SQS, DynamoDB; SES, SNS and S3 priced per mail); ${AWS_PRICES.region} list prices of ${AWS_PRICES.takenOn}:`,
      ...formatBill(mailUsage!, { unit: 'inbound mails' }),
      ...serviceLines.map((line) => line.text),
      `total per 1,000 inbound mails, SES, SNS and S3 included: $${mailTotal.toFixed(5)}; the widget's per 1,000 one-question conversations, measured in the same process: $${widgetTotal.toFixed(5)} (${(mailTotal / widgetTotal).toFixed(1)}x)`,
      'assumed: SES stores each mail once in S3 and notifies once through SNS to the mail queue (the local platform takes it by SMTP and queues its id instead: one SQS send, receive and delete either way); model tokens are not billed with the offline model; the answer leaves by SES sending, priced with the mail the agent sends ($0.10 / 1,000 mails), not here',
    );
    return lines;
  } finally {
    await platform.stop();
    await dynalite.stop();
  }
}
