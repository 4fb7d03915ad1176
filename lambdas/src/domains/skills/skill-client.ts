import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
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

/** Headers that change during a session (the turn token is renewed before it expires). */
export type TurnHeaders = () => Promise<Record<string, string>>;

const CLIENT_INFO = { name: 'service-platform', version: '1.0.0' };

/**
 * Opens an MCP session with the official client over streamable HTTP (the transport sends
 * `Accept: application/json, text/event-stream` itself). `turnHeaders` is read on every request.
 */
export async function connectSkill(target: SkillTarget, turnHeaders: TurnHeaders = async () => ({})): Promise<Client> {
  const fetchSkill = skillFetch(target.guard);
  const transport = new StreamableHTTPClientTransport(new URL(target.mcpUrl), {
    fetch: async (url, init) => {
      const headers = new Headers(init?.headers);
      if (target.bearer) headers.set('authorization', `Bearer ${target.bearer}`);
      for (const [name, value] of Object.entries(await turnHeaders())) headers.set(name, value);
      return fetchSkill(url, { ...init, headers });
    },
  });
  const client = new Client(CLIENT_INFO);
  try {
    await client.connect(transport, { timeout: SKILL_TIMEOUT_MS });
  } catch (error) {
    await client.close().catch(() => undefined);
    throw error;
  }
  return client;
}

/** Every tool the server lists (following pagination). */
export async function listAllTools(client: Client): Promise<Tool[]> {
  const tools: Tool[] = [];
  let cursor: string | undefined;
  do {
    const page = await client.listTools(cursor ? { cursor } : undefined, { timeout: SKILL_TIMEOUT_MS });
    tools.push(...page.tools);
    cursor = page.nextCursor;
  } while (cursor);
  return tools;
}

export async function callSkillTool(client: Client, name: string, args: Record<string, unknown>): Promise<CallToolResult> {
  return (await client.callTool({ name, arguments: args }, undefined, { timeout: SKILL_TIMEOUT_MS })) as CallToolResult;
}

/** Lists a skill's tools in a session of its own (used for registration and the tool-list cache). */
export async function listSkillTools(target: SkillTarget, language: string): Promise<{ tools: Tool[]; serverName: string | undefined }> {
  const client = await connectSkill(target, async () => ({ 'x-service-language': language }));
  try {
    return { tools: await listAllTools(client), serverName: client.getServerVersion()?.name };
  } finally {
    await client.close();
  }
}
