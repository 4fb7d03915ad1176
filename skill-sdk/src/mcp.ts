import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError, type Tool } from '@modelcontextprotocol/sdk/types.js';
import type { SkillContext } from './context.js';
import type { Skill } from './define-skill.js';
import { runTool, type Logger, type ToolLimits } from './run-tool.js';

export interface McpRuntime {
  skill: Skill;
  limits: ToolLimits;
  log: Logger;
  /** tools/list answer, computed once per process. */
  toolList: Tool[];
}

/**
 * Every protocol Server builds its own Ajv instance unless given a validator, and a stateless skill builds a server
 * per request: one shared validator keeps that (about a sixth of a tool call's CPU) out of every call.
 */
const sharedJsonSchemaValidator = new AjvJsonSchemaValidator();

export function listTools(skill: Skill): Tool[] {
  return [...skill.tools.values()].map((tool) => ({
    name: tool.name,
    description: tool.description,
    inputSchema: tool.inputJsonSchema as Tool['inputSchema'],
    ...(tool.annotations && { annotations: tool.annotations }),
  }));
}

/**
 * Answers one POST /mcp. Stateless: a fresh protocol Server and transport per request (reusing them throws since
 * SDK 1.26), no session id, JSON responses. The low-level Server, not McpServer: the skill answers tools/list and
 * tools/call itself, through runTool (the same pipeline as executeTool), and needs none of McpServer's registries.
 */
export async function handleMcp(runtime: McpRuntime, request: Request, body: unknown, contextFor: (signal: AbortSignal) => SkillContext): Promise<Response> {
  const { skill, limits, log, toolList } = runtime;
  const mcp = new Server({ name: skill.code, version: skill.version }, { capabilities: { tools: {} }, jsonSchemaValidator: sharedJsonSchemaValidator });
  mcp.setRequestHandler(ListToolsRequestSchema, () => ({ tools: toolList }));
  mcp.setRequestHandler(CallToolRequestSchema, (call, extra) => {
    const tool = skill.tools.get(call.params.name);
    if (!tool) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${call.params.name}`);
    return runTool(tool, call.params.arguments, contextFor, { limits, log, signal: extra.signal });
  });
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  await mcp.connect(transport);
  // Not closed afterwards: with JSON responses the transport has answered every request by the time it returns and
  // holds no stream or timer, so both are garbage; close() would only build a "Connection closed" error and abort
  // the finished handlers' signals, costing more than the rest of the SDK's share of the call.
  return transport.handleRequest(request, { parsedBody: body });
}
