import { TABLES, type TableName } from '@service/shared';
import type { Context } from 'aws-lambda';
import type { Deps } from '../../src/infra/deps';
import type { QueueName } from '../../src/infra/queue/queue';
import type { HttpEvent, HttpResult } from '../../src/infra/http/event';
import { localContext } from '../../src/entries/local/lambda-event';

/** One store or queue operation, named `<Command>:<table>` or `send:<queue>`, e.g. `PutCommand:runs`. */
export type Step = string;
export type FaultMode = 'crash' | 'throw';

/**
 * Deps whose store and queue behave normally except at the n-th operation of an attempt: there the attempt either
 * crashes (the operation never completes and nothing after it runs, as when the process dies) or throws.
 * `steps` records every operation in order; `reached` resolves once the fault fired.
 */
export function faultyDeps(deps: Deps, faultAt: number | undefined, mode: FaultMode, shiftMs = 0) {
  const tableOf = new Map((Object.keys(TABLES) as TableName[]).map((name) => [deps.store.table(name), name]));
  const steps: Step[] = [];
  let fire!: () => void;
  const reached = new Promise<void>((resolve) => (fire = resolve));
  const gate = <T>(step: Step, operation: () => Promise<T>): Promise<T> => {
    steps.push(step);
    if (steps.length - 1 !== faultAt) return operation();
    fire();
    return mode === 'crash' ? new Promise<T>(() => undefined) : Promise.reject(new Error(`injected fault at ${step}`));
  };
  const send = ((command: { constructor: { name: string }; input: { TableName?: string; RequestItems?: Record<string, unknown> } }) => {
    const physical = command.input.TableName ?? Object.keys(command.input.RequestItems ?? {})[0] ?? '';
    return gate(`${command.constructor.name}:${tableOf.get(physical) ?? physical}`, () => deps.store.doc.send(command as never));
  }) as Deps['store']['doc']['send'];
  const faulty: Deps = {
    ...deps,
    now: () => new Date(Date.now() + shiftMs),
    store: { ...deps.store, doc: { ...deps.store.doc, send } as Deps['store']['doc'] },
    queue: { send: (queue, body, options) => gate(`send:${queue}`, () => deps.queue.send(queue, body, options)) },
  };
  return { deps: faulty, steps, reached };
}

/** The API Gateway event of a JSON request, as API Gateway hands it to the REST API Lambda. */
export function apiEvent(
  method: string,
  path: string,
  options: { body?: unknown; headers?: Record<string, string>; query?: Record<string, string> } = {},
): HttpEvent {
  const now = new Date();
  return {
    version: '2.0',
    routeKey: '$default',
    rawPath: `/en/api/v1/${path}/`,
    rawQueryString: new URLSearchParams(options.query ?? {}).toString(),
    headers: { host: 'localhost', 'content-type': 'application/json', ...options.headers },
    ...(options.query ? { queryStringParameters: options.query } : {}),
    requestContext: {
      accountId: 'test',
      apiId: 'test',
      domainName: 'localhost',
      domainPrefix: 'test',
      http: { method, path: `/en/api/v1/${path}/`, protocol: 'HTTP/1.1', sourceIp: '192.0.2.10', userAgent: 'test' },
      requestId: `${now.getTime()}`,
      routeKey: '$default',
      stage: '$default',
      time: now.toUTCString(),
      timeEpoch: now.getTime(),
    },
    ...(options.body !== undefined ? { body: JSON.stringify(options.body) } : {}),
    isBase64Encoded: false,
  };
}

export type ApiHandler = (event: HttpEvent, context: Context) => Promise<HttpResult>;
export const invoke = (handler: ApiHandler, event: HttpEvent) => handler(event, localContext('api'));

type StoreCommand = { input?: { TableName?: string; Item?: Record<string, unknown> } };

/**
 * Makes the running platform's store fail the first operation `matches` picks (the request dies there, as in a crash
 * mid-request); every other operation runs. Returns the function that puts the store back.
 */
export function failStoreOnce(deps: Deps, matches: (command: StoreCommand) => boolean): () => void {
  const doc = deps.store.doc;
  const send = doc.send.bind(doc);
  let failed = false;
  doc.send = ((command: StoreCommand, ...rest: unknown[]) => {
    if (!failed && matches(command)) {
      failed = true;
      return Promise.reject(new Error('injected fault'));
    }
    return (send as (...args: unknown[]) => unknown)(command, ...rest);
  }) as typeof doc.send;
  return () => {
    doc.send = send;
  };
}

/** Makes the running platform's next send to `queue` fail (the message is lost, as in a crash before it went); every other send goes. */
export function failQueueSendOnce(deps: Deps, queue: QueueName): void {
  const send = deps.queue.send.bind(deps.queue);
  let failed = false;
  deps.queue.send = (name, body, options) => {
    if (failed || name !== queue) return send(name, body, options);
    failed = true;
    return Promise.reject(new Error('injected fault'));
  };
}
