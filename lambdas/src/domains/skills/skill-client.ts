import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpError, type CallToolResult, type Tool } from '@modelcontextprotocol/sdk/types.js';
import { LRUCache } from 'lru-cache';
import { AsyncLocalStorage } from 'node:async_hooks';
import type { OutboundPolicy } from '../../infra/net/outbound-guard';
import { skillFetch } from './skill-fetch';

/** Spec: an MCP tool request times out after 15 seconds by default. */
export const SKILL_TIMEOUT_MS = 15_000;

/** How the platform reaches one skill's MCP endpoint. */
export interface SkillTarget {
  mcpUrl: string;
  /** The skill's own bearer (never a platform key). */
  bearer?: string;
  /** The outbound policy for a skill a customer registered; undefined for the platform's own skills. */
  guard?: OutboundPolicy;
}

/** Headers of one request to a skill: the caller's language and, for a tool call, the run's turn token. */
export type CallHeaders = Record<string, string>;

/** A connection to one skill that runs call through, each request with its own caller's headers. */
export interface SkillLink {
  callTool(name: string, args: Record<string, unknown>, headers: CallHeaders): Promise<CallToolResult>;
  listTools(headers: CallHeaders): Promise<Tool[]>;
  /** Closes a session of the caller's own; a shared connection stays open for the container's next runs. */
  release(): Promise<void>;
}

const CLIENT_INFO = { name: 'service-platform', version: '1.0.0' };

/**
 * The headers of the call in progress. A shared client serves many runs at once, so each call's headers travel in its
 * own async context to the transport's fetch (the SDK sends a request within the caller's context), never through
 * state the runs share: a turn token reaches only the requests of the call it was given for.
 */
const callHeaders = new AsyncLocalStorage<CallHeaders>();

/** Opens an MCP session with the official client over streamable HTTP (the transport sends `Accept: application/json, text/event-stream` itself). */
async function connect(target: SkillTarget): Promise<Client> {
  const fetchSkill = skillFetch(target.guard);
  const transport = new StreamableHTTPClientTransport(new URL(target.mcpUrl), {
    fetch: async (url, init) => {
      const headers = new Headers(init?.headers);
      if (target.bearer) headers.set('authorization', `Bearer ${target.bearer}`);
      for (const [name, value] of Object.entries(callHeaders.getStore() ?? {})) headers.set(name, value);
      return fetchSkill(url, { ...init, headers });
    },
  });
  const client = new Client(CLIENT_INFO);
  try {
    // The handshake (and the GET stream the transport opens after it) belongs to no call: it carries no turn token.
    await callHeaders.exit(() => client.connect(transport, { timeout: SKILL_TIMEOUT_MS }));
  } catch (error) {
    await client.close().catch(() => undefined);
    throw error;
  }
  return client;
}

/** Every tool the server lists (following pagination). */
async function listAllTools(client: Client): Promise<Tool[]> {
  const tools: Tool[] = [];
  let cursor: string | undefined;
  do {
    const page = await client.listTools(cursor ? { cursor } : undefined, { timeout: SKILL_TIMEOUT_MS });
    tools.push(...page.tools);
    cursor = page.nextCursor;
  } while (cursor);
  return tools;
}

/** A stateless server (no session id) answers any request of any caller alike, so one initialized client can serve every run. */
const isStateless = (client: Client) => (client.transport as StreamableHTTPClientTransport | undefined)?.sessionId === undefined;

/**
 * Initialized clients of stateless skills, one per endpoint, bearer and outbound policy for the life of the container
 * (bounded). A failed connection is not kept, and a client whose transport failed is dropped, so the next run connects
 * afresh; a dropped client is not closed, as other runs' calls may still be in flight on it (a stateless client holds
 * no stream or session to end).
 */
const sharedClients = new LRUCache<string, Promise<Client>>({ max: 500 });
/** Skills found to keep sessions: each run gets its own, so no session state passes from one run to another. */
const statefulSkills = new LRUCache<string, true>({ max: 500 });

const keyOf = (target: SkillTarget) => JSON.stringify([target.mcpUrl, target.bearer ?? '', target.guard?.allowLocal ?? null]);

function linkOf(client: Client, onTransportFailure: () => void, release: () => Promise<void>): SkillLink {
  const within = async <T>(headers: CallHeaders, request: () => Promise<T>): Promise<T> => {
    try {
      return await callHeaders.run(headers, request);
    } catch (error) {
      // A JSON-RPC error (a timeout too) is an answer over a working client; anything else (network, HTTP status) may not be.
      if (!(error instanceof McpError)) onTransportFailure();
      throw error;
    }
  };
  return {
    callTool: (name, args, headers) =>
      within(headers, async () => (await client.callTool({ name, arguments: args }, undefined, { timeout: SKILL_TIMEOUT_MS })) as CallToolResult),
    listTools: (headers) => within(headers, () => listAllTools(client)),
    release,
  };
}

/**
 * A link to the skill for one run: the container's shared client when the skill is stateless (no handshake per run),
 * else a session of the run's own, closed on release.
 */
export async function openSkill(target: SkillTarget): Promise<SkillLink> {
  const key = keyOf(target);
  if (statefulSkills.has(key)) {
    const client = await connect(target);
    return linkOf(
      client,
      () => undefined,
      () => client.close(),
    );
  }
  let shared = sharedClients.get(key);
  if (!shared) {
    shared = connect(target);
    sharedClients.set(key, shared);
    shared.catch(() => sharedClients.delete(key));
  }
  const client = await shared;
  const forget = () => {
    if (sharedClients.get(key) === shared) sharedClients.delete(key);
  };
  if (isStateless(client)) return linkOf(client, forget, async () => undefined);
  statefulSkills.set(key, true);
  forget();
  await client.close();
  return openSkill(target);
}

/** Lists a skill's tools in a session of its own, as the skill answers now (registration). */
export async function listSkillTools(target: SkillTarget, language: string): Promise<{ tools: Tool[]; serverName: string | undefined }> {
  const client = await connect(target);
  try {
    return { tools: await callHeaders.run({ 'x-service-language': language }, () => listAllTools(client)), serverName: client.getServerVersion()?.name };
  } finally {
    await client.close();
  }
}
