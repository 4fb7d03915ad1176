import { DomainError, type McpScope, type Permission } from '@service/shared';
import type { RegisteredTool, ScopeChallengeHandler, ServerContext } from '@modelcontextprotocol/server';
import { noteCall } from '../../domains/connections/connections';
import { logger } from '../../infra/logger';
import { reachesAgent, roleAllows, type McpAccess, type McpGrant } from './access';

/** What every MCP tool shares: its scope challenge, its refusals, its call record, its output schema kept per container. */

/** A refusal the assistant should read (a tool error, not a protocol error). */
export class ToolRefusal extends Error {}

/** How a caller gets a permission it lacks: a connection authorizes again; an MCP key's permissions are fixed. */
const REMEDY: Record<McpGrant['kind'], string> = {
  connection: 'authorize again to grant it',
  key: 'this MCP key does not have it: make a key that does (Developers > MCP connections)',
};

/**
 * The step-up challenge (HTTP 403 insufficient_scope, before the tool runs): the complete scope set the client should
 * ask for, i.e. what it has plus what this call needs.
 */
export const needs =
  (access: McpAccess, scopesFor: (args: Record<string, unknown>) => McpScope[]): ScopeChallengeHandler =>
  ({ request, authInfo }) => {
    if (!authInfo) return undefined;
    const args = ((request.params as { arguments?: Record<string, unknown> } | undefined)?.arguments ?? {}) as Record<string, unknown>;
    const missing = scopesFor(args).filter((scope) => !authInfo.scopes.includes(scope));
    if (missing.length === 0) return undefined;
    const scopes = [...new Set([...authInfo.scopes, ...missing])] as [string, ...string[]];
    return { scopes, errorDescription: `This call needs the permission ${missing.join(' and ')}; ${REMEDY[access.grant.kind]}` };
  };

/** Runs a tool body, turns domain refusals into tool errors the assistant can read, and records the call. */
export function toolCall<A, O extends Record<string, unknown>>(
  access: McpAccess,
  tool: string,
  body: (
    args: A,
    ctx: ServerContext,
  ) => Promise<{ out: O; text: string; agentId?: string; runId?: string; meta?: Record<string, unknown>; task?: Record<string, unknown> }>,
) {
  return async (args: A, ctx: ServerContext) => {
    const agentId = (args as { agent_id?: string }).agent_id ?? null;
    try {
      const { out, text, meta, task, ...about } = await body(args, ctx);
      access.afterAnswer.push(() =>
        noteCall(access.deps, access.grant.id, { tool, agentId: about.agentId ?? agentId, runId: about.runId ?? null, outcome: 'ok' }),
      );
      // A task answer (CreateTaskResult) stands in for the tool result (see registerTaskMethods in tasks.ts).
      if (task) return task as never;
      return { content: [{ type: 'text' as const, text }], structuredContent: out, ...(meta ? { _meta: meta } : {}) };
    } catch (error) {
      const refused = error instanceof ToolRefusal || error instanceof DomainError;
      if (!refused) logger.error('mcp tool failed', { tool, grantId: access.grant.id, error });
      const message = refused ? error.message : 'The tool failed on our side; nothing was changed';
      const outcome = error instanceof DomainError ? error.code : refused ? 'refused' : 'failed';
      access.afterAnswer.push(() => noteCall(access.deps, access.grant.id, { tool, agentId, runId: null, outcome }));
      return { isError: true, content: [{ type: 'text' as const, text: message }] };
    }
  };
}

const NOT_REACHED: Record<McpGrant['kind'], (agentId: string) => string> = {
  connection: (agentId) => `This connection does not reach agent ${agentId}; the person who connected it chose other agents`,
  key: (agentId) => `This MCP key does not reach agent ${agentId}; it was made for other agents`,
};

export function assertAllowed(access: McpAccess, permission: Permission, agentId?: string): void {
  const denied = roleAllows(access, permission);
  if (denied) throw new ToolRefusal(denied);
  if (agentId !== undefined && !reachesAgent(access, agentId)) throw new ToolRefusal(NOT_REACHED[access.grant.kind](agentId));
}

/**
 * The JSON Schema of each tool's output, kept per container. The SDK converts a registered tool's output schema the
 * first time a call of it answers, once per registration, which here is once per request (a fresh server per
 * request); the schemas are the same objects in every request, so the first conversion serves them all.
 */
const outputSchemaJsons = new WeakMap<object, Record<string, unknown> | undefined>();

export function keepOutputSchemaJson(tool: RegisteredTool): RegisteredTool {
  const schema = tool.outputSchema;
  if (!schema) return tool;
  if (outputSchemaJsons.has(schema)) tool.outputSchemaJson = outputSchemaJsons.get(schema);
  else outputSchemaJsons.set(schema, tool.outputSchemaJson);
  return tool;
}
