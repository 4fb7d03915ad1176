import { createHash, randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { QUEUE_URL_ENV, ROUTES, randomBase62, type QueueName } from '@service/shared';
import { FUNCTIONS } from '../cdk/lib/functions';
import { BUILTIN_SKILLS } from '../cdk/lib/skills';
import { startPlatform } from '../lambdas/src/entries/local/platform';
import { createSubscription } from '../lambdas/src/domains/webhooks/subscriptions';
import { toSqsEvent } from '../lambdas/src/infra/queue/local';
import { startDynaliteProcess } from './dynalite-process';
import { drive, platformCalls, soak, startSoakProcess, type Call, type SoakProcess } from './soak';

const TRAFFIC_S = Number(process.env.SOAK_SECONDS ?? 180);

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** Amazon SQS's SendMessage as the SDK calls it (JSON protocol, the queue URL as endpoint): the bodies wait for their consumer. */
async function startQueues() {
  const waiting: Record<QueueName, string[]> = { runs: [], webhooks: [], knowledge: [], evals: [], mail: [] };
  const server = createServer((request, response) => {
    let text = '';
    request.on('data', (chunk: Buffer) => (text += chunk));
    request.on('end', () => {
      const { QueueUrl, MessageBody } = JSON.parse(text) as { QueueUrl: string; MessageBody: string };
      waiting[QueueUrl.split('/').at(-1) as QueueName].push(MessageBody);
      const md5 = createHash('md5').update(MessageBody).digest('hex');
      response.writeHead(200, { 'content-type': 'application/x-amz-json-1.0' }).end(JSON.stringify({ MessageId: randomUUID(), MD5OfMessageBody: md5 }));
    });
  });
  const url = await listen(server);
  return {
    env: Object.fromEntries(Object.entries(QUEUE_URL_ENV).map(([queue, name]) => [name, `${url}/000000000000/${queue}`])),
    take: (queue: QueueName) => waiting[queue].shift(),
    close: () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
  };
}

/** A webhook receiver that accepts every delivery. */
async function startReceiver() {
  const server = createServer((request, response) => request.resume().on('end', () => response.writeHead(204).end()));
  return { url: await listen(server), close: () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))) };
}

const statusOf = async (response: Response) => (await response.arrayBuffer(), response.status);

/** Invokes a queue consumer with each message its queue receives, one SQS event at a time, until `seconds` have passed. */
async function consume(target: SoakProcess, take: () => string | undefined, seconds: number): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  const end = performance.now() + seconds * 1000;
  while (performance.now() < end) {
    const body = take();
    if (!body) {
      await sleep(20);
      continue;
    }
    const event = toSqsEvent('soak', [{ id: randomUUID(), sk: randomUUID(), body, receiveCount: 1, sentAt: Date.now() }]);
    const outcome = await target.invoke(event).then(
      () => 'invoked',
      () => 'error',
    );
    counts.set(outcome, (counts.get(outcome) ?? 0) + 1);
  }
  return counts;
}

/**
 * Each Lambda of the stack (cdk/lib/functions.ts and the built-in skills) in a Node process of its own, its entry
 * imported once and its handler invoked again and again for TRAFFIC_S, then left idle: HTTP functions served by the
 * local platform's own server (so their events are the ones it builds) under the requests their routes take, queue
 * consumers handed the SQS events of the messages the others sent, the sweeper invoked on a loop. DynamoDB is
 * dynalite in a process of its own, SQS a loopback stand-in for SendMessage.
 */
export async function soakLambdas(): Promise<string[]> {
  const key = `sk_live_${randomBase62(40)}`;
  const dynalite = await startDynaliteProcess();
  const queues = await startQueues();
  const receiver = await startReceiver();
  const seeding = await startPlatform({ port: 0, dynamoEndpoint: dynalite.endpoint, env: { SERVICE_DEMO_API_KEY: key, WEBHOOK_ALLOW_LOCAL: '1' } });
  const { agentId, workspaceId } = seeding.demo;
  await createSubscription(seeding.deps, workspaceId, { url: `${receiver.url}/hooks`, events: ['agent.command.completed', 'agent.command.failed'] });
  await seeding.stop();
  const secrets = { SKILL_TURN_TOKEN_SECRET: randomBase62(48), SERVICE_MASTER_KEY: randomBase62(48), SKILL_BEARER: randomBase62(40) };
  const env: Record<string, string> = {
    ...secrets,
    ...queues.env,
    DYNAMODB_ENDPOINT: dynalite.endpoint,
    AWS_REGION: 'us-east-1',
    AWS_ACCESS_KEY_ID: 'soak',
    AWS_SECRET_ACCESS_KEY: 'soak',
    MODEL: 'offline',
    WEBHOOK_ALLOW_LOCAL: '1',
  };
  const started: { id: string; process: SoakProcess }[] = [];
  const start = async (id: string, target: Parameters<typeof startSoakProcess>[0], extraEnv: Record<string, string> = {}) => {
    const process = await startSoakProcess(target, { ...env, ...extraEnv });
    started.push({ id, process });
    return process;
  };
  try {
    const entryOf = (id: string) => FUNCTIONS.find((fn) => fn.id === id)!.entry;
    const skillApi = await start('SkillApi', { kind: 'http', entry: entryOf('SkillApi'), route: ROUTES.restApi, streaming: false });
    const skills = await Promise.all(
      BUILTIN_SKILLS.map(async ({ id, code, entry }) => ({
        id,
        code,
        process: await start(id, { kind: 'http', entry, route: '/{proxy+}', streaming: false }, { SERVICE_API_URL: `${skillApi.url}/en/api/v1` }),
      })),
    );
    const skillUrls = JSON.stringify(Object.fromEntries(skills.map(({ code, process }) => [code, `${process.url}/mcp`])));
    const http = (id: string, route: string, streaming = false) => start(id, { kind: 'http', entry: entryOf(id), route, streaming });
    const api = await http('Api', ROUTES.restApi);
    const widget = await http('Widget', ROUTES.widgetConfig);
    const chat = await http('Chat', '/{proxy+}', true);
    const history = await http('WidgetHistory', ROUTES.widgetHistory);
    const conversations = await http('ConversationsApi', ROUTES.conversationsApi);
    const auth = await http('AuthApi', ROUTES.authApi);
    const mcp = await http('Mcp', '/{proxy+}', true);
    const runner = await start('Runner', { kind: 'events', entry: entryOf('Runner') }, { BUILTIN_SKILL_URLS: skillUrls });
    const deliverer = await start('WebhookDeliverer', { kind: 'events', entry: entryOf('WebhookDeliverer') });
    const sweeper = await start('RunSweeper', { kind: 'events', entry: entryOf('RunSweeper') });

    const headers = { 'x-service-api-key': key, 'content-type': 'application/json' };
    const apiCalls = (origin: string) => platformCalls(origin, key, agentId);
    const mcpList =
      (url: string, authorization: string): Call =>
      async () =>
        statusOf(
          await fetch(`${url}/mcp`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25', authorization },
            body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
          }),
        );
    const loads: [SoakProcess, () => Promise<Map<number | string, number>>][] = [
      [api, () => drive([apiCalls(api.url).command!, apiCalls(api.url).status!, apiCalls(api.url).list!], { clients: 4, perSecond: 40, seconds: TRAFFIC_S })],
      [widget, () => drive([apiCalls(widget.url).widgetConfig!], { clients: 2, perSecond: 20, seconds: TRAFFIC_S })],
      [chat, () => drive([apiCalls(chat.url).chat!], { clients: 2, perSecond: 10, seconds: TRAFFIC_S })],
      [
        history,
        () =>
          drive(
            [
              async () =>
                statusOf(
                  await fetch(`${history.url}/v1/agents/${agentId}/history?conversation_id=${randomUUID()}`, { headers: { origin: 'http://localhost:5173' } }),
                ),
            ],
            { clients: 2, perSecond: 10, seconds: TRAFFIC_S },
          ),
      ],
      [
        conversations,
        () =>
          drive([async () => statusOf(await fetch(`${conversations.url}/en/api/v1/conversations/list/`, { headers }))], {
            clients: 2,
            perSecond: 10,
            seconds: TRAFFIC_S,
          }),
      ],
      [auth, () => drive([async () => statusOf(await fetch(`${auth.url}/en/api/v1/auth/session/`))], { clients: 2, perSecond: 10, seconds: TRAFFIC_S })],
      [
        skillApi,
        () =>
          drive(
            [
              async () =>
                statusOf(
                  await fetch(`${skillApi.url}/en/api/v1/admin/workspaces/list/`, {
                    method: 'POST',
                    headers: { 'x-service-master-key': secrets.SERVICE_MASTER_KEY, 'content-type': 'application/json' },
                    body: '{}',
                  }),
                ),
            ],
            { clients: 2, perSecond: 10, seconds: TRAFFIC_S },
          ),
      ],
      [
        mcp,
        () =>
          drive([mcpList(mcp.url, 'Bearer not-a-token'), async () => statusOf(await fetch(`${mcp.url}/.well-known/oauth-protected-resource/mcp`))], {
            clients: 2,
            perSecond: 10,
            seconds: TRAFFIC_S,
          }),
      ],
      ...skills.map(({ process }): [SoakProcess, () => Promise<Map<number | string, number>>] => [
        process,
        () => drive([mcpList(process.url, `Bearer ${secrets.SKILL_BEARER}`)], { clients: 1, perSecond: 5, seconds: TRAFFIC_S }),
      ]),
      [runner, () => consume(runner, () => queues.take('runs'), TRAFFIC_S) as Promise<Map<number | string, number>>],
      [deliverer, () => consume(deliverer, () => queues.take('webhooks'), TRAFFIC_S) as Promise<Map<number | string, number>>],
      [sweeper, () => consume(sweeper, () => '{}', TRAFFIC_S) as Promise<Map<number | string, number>>],
    ];
    const results = await Promise.all(loads.map(([process, traffic]) => soak(started.find((entry) => entry.process === process)!.id, process, traffic)));
    const met = results.filter((result) => result.met).length;
    return [
      ...results.flatMap((result) => result.lines),
      `${met} of ${results.length} functions within the targets: ${met === results.length ? 'met' : 'NOT met'}`,
    ];
  } finally {
    await Promise.all(started.map(({ process }) => process.stop()));
    await Promise.all([queues.close(), receiver.close()]);
    await dynalite.stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) for (const line of await soakLambdas()) console.log(line);
