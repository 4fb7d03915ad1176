import type { TableName } from '@service/shared';
import { AWS_PRICES } from './aws-prices';
import type { TableUsage } from './cost-dynamo-meter';

/** What `commands` commands (or, for another bill, that many of its units) did, as AWS would bill it. */
export interface MeasuredUsage {
  commands: number;
  /** Each function's invocations: its id in the stack, its configured memory, and each invocation's wall time. */
  lambda: { functionId: string; memoryMb: number; durationsMs: number[] }[];
  apiGatewayRequests: number;
  sqs: { sends: number; receives: number; deletes: number };
  dynamo: ReadonlyMap<TableName, TableUsage>;
}

/**
 * Knowledge as deployed (bench/knowledge-aws.ts): `pages` pages indexed in LanceDB on S3, and what each question's
 * search did there (S3 requests, and its time in the function that searches).
 */
export interface KnowledgeUsage {
  pages: number;
  storedBytes: number;
  perQuestion: { get: number; list: number };
  searchDurationsMs: number[];
  searchFunction: { functionId: string; memoryMb: number };
}

interface BillLine {
  service: string;
  /** Per 1,000 commands, in `unit`. */
  quantity: number;
  unit: string;
  unitPrice: string;
  cost: number;
}

export const BILL_TARGET_PER_1000 = 0.05;
const PER = 1000;

const perMillion = (price: number, unit: string) => `$${price} / M ${unit}`;
const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);

export function billLines(usage: MeasuredUsage, per = 'cmd'): BillLine[] {
  const scale = PER / usage.commands;
  const { dynamodb, sqs, lambda, apiGateway } = AWS_PRICES;
  const tables = [...usage.dynamo.values()];
  const reads = sum(tables.map((table) => table.readUnits)) * scale;
  const tableWrites = sum(tables.map((table) => table.writeUnits + table.failedConditionUnits)) * scale;
  const indexWrites = sum(tables.map((table) => table.indexWriteUnits)) * scale;
  const requestLine = (service: string, quantity: number, unit: string, price: number): BillLine => ({
    service,
    quantity,
    unit,
    unitPrice: perMillion(price, unit),
    cost: (quantity * price) / 1e6,
  });
  const invocations = sum(usage.lambda.map((fn) => fn.durationsMs.length)) * scale;
  return [
    requestLine('DynamoDB reads', reads, 'RRU', dynamodb.perMillionReadRequestUnits),
    requestLine('DynamoDB writes (tables)', tableWrites, 'WRU', dynamodb.perMillionWriteRequestUnits),
    requestLine('DynamoDB writes (global secondary indexes)', indexWrites, 'WRU', dynamodb.perMillionWriteRequestUnits),
    requestLine(
      'SQS requests (send, receive, delete)',
      (usage.sqs.sends + usage.sqs.receives + usage.sqs.deletes) * scale,
      'requests',
      sqs.perMillionStandardRequests,
    ),
    requestLine('API Gateway HTTP API requests', usage.apiGatewayRequests * scale, 'requests', apiGateway.perMillionHttpApiRequests),
    requestLine('Lambda requests', invocations, 'requests', lambda.perMillionRequests),
    ...usage.lambda.map((fn): BillLine => {
      // Lambda bills each invocation's duration rounded up to the millisecond.
      const gbSeconds = (sum(fn.durationsMs.map(Math.ceil)) / 1000) * (fn.memoryMb / 1024) * scale;
      const mean = sum(fn.durationsMs) / fn.durationsMs.length;
      return {
        service: `Lambda ${fn.functionId} duration (${fn.memoryMb} MB ${lambda.architecture}, ${((fn.durationsMs.length * scale) / PER).toFixed(1)}/${per}, mean ${mean.toFixed(1)} ms)`,
        quantity: gbSeconds,
        unit: 'GB-s',
        unitPrice: `$${lambda.perGbSecond} / GB-s`,
        cost: gbSeconds * lambda.perGbSecond,
      };
    }),
  ];
}

/** The knowledge lines: per 1,000 questions (their searches; the runs that ask them are priced as commands), and the index at rest. */
export function knowledgeBillLines(usage: KnowledgeUsage): { perThousandQuestions: BillLine[]; atRest: BillLine[] } {
  const { s3, lambdaX86 } = AWS_PRICES;
  const perThousand = (price: number) => `$${price} / 1,000 requests`;
  const gbSeconds = (sum(usage.searchDurationsMs.map(Math.ceil)) / 1000) * (usage.searchFunction.memoryMb / 1024) * (PER / usage.searchDurationsMs.length);
  const gb = usage.storedBytes / 1024 ** 3;
  return {
    perThousandQuestions: [
      {
        service: 'S3 GET (index pages and the top rows read by each search)',
        quantity: usage.perQuestion.get * PER,
        unit: 'requests',
        unitPrice: perThousand(s3.perThousandGet),
        cost: usage.perQuestion.get * s3.perThousandGet,
      },
      {
        service: 'S3 LIST (the check for a newer index version, once a search)',
        quantity: usage.perQuestion.list * PER,
        unit: 'requests',
        unitPrice: perThousand(s3.perThousandPutListPost),
        cost: usage.perQuestion.list * s3.perThousandPutListPost,
      },
      {
        service: `Lambda ${usage.searchFunction.functionId} requests (one a search)`,
        quantity: PER,
        unit: 'requests',
        unitPrice: perMillion(lambdaX86.perMillionRequests, 'requests'),
        cost: (PER * lambdaX86.perMillionRequests) / 1e6,
      },
      {
        service: `Lambda ${usage.searchFunction.functionId} search duration (${usage.searchFunction.memoryMb} MB x86_64)`,
        quantity: gbSeconds,
        unit: 'GB-s',
        unitPrice: `$${lambdaX86.perGbSecond} / GB-s`,
        cost: gbSeconds * lambdaX86.perGbSecond,
      },
    ],
    atRest: [
      {
        service: `S3 Standard storage (${usage.pages.toLocaleString('en-US')} pages: passages, parents, indexes)`,
        quantity: gb,
        unit: 'GB-month',
        unitPrice: `$${s3.perGbMonthStandard} / GB-month`,
        cost: gb * s3.perGbMonthStandard,
      },
    ],
  };
}

const money = (value: number) => `$${value.toFixed(value < 0.001 ? 6 : 5)}`;
const quantity = (value: number) => (value >= 100 ? Math.round(value).toLocaleString('en-US') : value.toFixed(2));

const formatLine = (line: BillLine) =>
  `${line.service.padEnd(84)} ${`${quantity(line.quantity)} ${line.unit}`.padStart(26)}  ${line.unitPrice.padEnd(26)} ${money(line.cost)}`;

/** The knowledge lines under the commands' bill, each part with its total. */
export function formatKnowledgeBill(usage: KnowledgeUsage): string[] {
  const { perThousandQuestions, atRest } = knowledgeBillLines(usage);
  const total = (label: string, lines: BillLine[]) => `${label.padEnd(84)} ${''.padStart(26)}  ${''.padEnd(26)} ${money(sum(lines.map((line) => line.cost)))}`;
  return [
    `knowledge: ${'1,000 questions (each one knowledge__search, top 5)'.padEnd(73)} ${'quantity / 1,000 questions'.padStart(26)}`,
    ...perThousandQuestions.map(formatLine),
    total('total per 1,000 questions (beside the runs that ask them, priced above as commands)', perThousandQuestions),
    `knowledge: ${`${usage.pages.toLocaleString('en-US')} pages kept indexed, a month`.padEnd(73)} ${'quantity / month'.padStart(26)}`,
    ...atRest.map(formatLine),
    total(`total per month for ${usage.pages.toLocaleString('en-US')} pages (no capacity billed while nobody asks)`, atRest),
  ];
}

/** What a bill is of: its unit (per 1,000 of them) and its target, if it has one. */
export interface BillOf {
  unit: string;
  target?: number;
}

/** The bill line by line, its total against the target, and what dominates it. */
export function formatBill(usage: MeasuredUsage, of: BillOf = { unit: 'commands', target: BILL_TARGET_PER_1000 }): string[] {
  const lines = billLines(usage, of.unit === 'commands' ? 'cmd' : of.unit.split(' ').at(-1)!.replace(/s$/, ''));
  const total = sum(lines.map((line) => line.cost));
  const largest = [...lines].sort((a, b) => b.cost - a.cost)[0]!;
  const durationCost = sum(lines.filter((line) => line.unit === 'GB-s').map((line) => line.cost));
  const target = of.target;
  const verdict = target === undefined ? '' : `   (target at most $${target}: ${total <= target ? 'met' : 'NOT met'})`;
  return [
    `${'service'.padEnd(84)} ${`quantity / 1,000 ${of.unit}`.padStart(26)}  ${'unit price'.padEnd(26)} cost`,
    ...lines.map(formatLine),
    `${`total per 1,000 ${of.unit}`.padEnd(84)} ${''.padStart(26)}  ${''.padEnd(26)} ${money(total)}${verdict}`,
    `by service: ${shares(lines, total)}; largest line: ${largest.service}, ${((largest.cost / total) * 100).toFixed(0)}% of the bill` +
      (target === undefined
        ? ''
        : `; Lambda durations could be ${durationCost > 0 ? ((target - (total - durationCost)) / durationCost).toFixed(0) : '∞'}x these before the bill reaches the target`),
    `DynamoDB per ${of.unit.replace(/s$/, '')} by table: ${[...usage.dynamo]
      .sort(([, a], [, b]) => b.writeUnits + b.indexWriteUnits - (a.writeUnits + a.indexWriteUnits))
      .map(
        ([name, table]) =>
          `${name} ${fmtUnits(table.writeUnits + table.failedConditionUnits, usage.commands)}+${fmtUnits(table.indexWriteUnits, usage.commands)} WRU ${fmtUnits(table.readUnits, usage.commands)} RRU`,
      )
      .join(', ')} (table+index writes, reads)`,
  ];
}

/** Each service's share of the bill (a line's service is its first word: DynamoDB, SQS, API Gateway, Lambda). */
function shares(lines: BillLine[], total: number): string {
  const byService = new Map<string, number>();
  for (const line of lines) {
    const service = line.service.startsWith('API Gateway') ? 'API Gateway' : line.service.split(' ')[0]!;
    byService.set(service, (byService.get(service) ?? 0) + line.cost);
  }
  return [...byService]
    .sort(([, a], [, b]) => b - a)
    .map(([service, cost]) => `${service} ${((cost / total) * 100).toFixed(0)}%`)
    .join(', ');
}

const fmtUnits = (units: number, commands: number) => (units / commands).toFixed(units / commands >= 10 ? 0 : 1);
