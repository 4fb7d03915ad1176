/**
 * One server of bench/skill-calls.ts, in a Node process of its own (started by `startServerProcess`): each server is
 * measured on its own heap, so neither's garbage is collected during the other's round. Given the same tool with the
 * same input schema, as
 *   bare          the official SDK's stateless example: node:http, a fresh McpServer and StreamableHTTPServerTransport
 *                 per request (each McpServer building its own Ajv validator, as the SDK does unless given one), for information
 *   bare-shared   the same, its servers given one shared validator (as startSkill's are): the target
 *   startSkill    startSkill with the bearer and the turn-token key of the parent's environment
 * It tells its URL over IPC, runs a full collection when asked (`gc`: every round starts from the same heap state,
 * for both servers alike), and exits with its parent (the IPC channel closing).
 */
import { fork } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import { defineSkill, startSkill, z } from '../skill-sdk/src/index';

export type ServerKind = 'bare' | 'bare-shared' | 'startSkill';
export interface ServerProcess {
  /** The MCP endpoint. */
  url: string;
  /** A full garbage collection in the server's process, settled when done. */
  collectGarbage(): Promise<void>;
  stop(): Promise<void>;
}

const input = { text: z.string().max(1000) };
const echo = async ({ text }: { text: string }) => ({ text, length: text.length });

function startBareServer(jsonSchemaValidator?: AjvJsonSchemaValidator): Promise<string> {
  const server = createServer(async (req, res) => {
    let body = '';
    for await (const chunk of req) body += chunk;
    const mcp = new McpServer({ name: 'bench', version: '1.0.0' }, jsonSchemaValidator && { jsonSchemaValidator });
    mcp.registerTool('bench__echo', { description: 'Echo', inputSchema: input }, async (args) => {
      const result = await echo(args);
      return { content: [{ type: 'text', text: JSON.stringify(result) }], structuredContent: result };
    });
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    res.on('close', () => void mcp.close());
    await mcp.connect(transport);
    await transport.handleRequest(req, res, JSON.parse(body));
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`)));
}

async function startSkillServer(): Promise<string> {
  const skill = defineSkill({ code: 'bench', version: '1.0.0', defaultLocale: 'en', tools: { echo: { description: 'Echo', input, handler: echo } } });
  const quiet = { error: console.error, warn: () => undefined, info: () => undefined };
  const running = await startSkill(skill, { port: 0, bearer: process.env.SKILL_BEARER, turnTokenSecret: process.env.SKILL_TURN_TOKEN_SECRET, log: quiet });
  return `${running.url}/mcp`;
}

const starters: Record<ServerKind, () => Promise<string>> = {
  bare: () => startBareServer(),
  'bare-shared': () => startBareServer(new AjvJsonSchemaValidator()),
  startSkill: startSkillServer,
};

/** Starts one server in a process of its own, with `--expose-gc`. */
export async function startServerProcess(kind: ServerKind, env: Record<string, string> = {}): Promise<ServerProcess> {
  const child = fork(import.meta.filename, [kind], {
    execArgv: ['--import', 'tsx', '--expose-gc'],
    env: { ...process.env, ...env },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    child.once('message', (message) => resolve(String(message)));
    child.once('exit', (code) => reject(new Error(`the ${kind} server exited with ${code} before listening`)));
  });
  return {
    url,
    collectGarbage: () =>
      new Promise((resolve) => {
        child.once('message', () => resolve());
        child.send('gc');
      }),
    stop: () =>
      new Promise((resolve) => {
        child.once('exit', () => resolve());
        child.disconnect();
      }),
  };
}

if (process.argv[1] === import.meta.filename && process.send) {
  const gc = globalThis.gc;
  if (!gc) throw new Error('run with --expose-gc');
  process.send(await starters[process.argv[2] as ServerKind]());
  process.on('message', () => {
    gc();
    process.send!('collected');
  });
  process.on('disconnect', () => process.exit(0));
}
