import { mayCall } from './access.js';
import type { SkillContext } from './context.js';
import { createDeadline, TIMED_OUT } from './deadline.js';
import type { SkillTool } from './define-skill.js';
import { formatIssues, SkillError } from './errors.js';

export interface ToolLimits {
  /** Handler deadline; on expiry the handler's signal aborts and the call gives an isError result. */
  timeoutMs: number;
  /** Cap on the serialized result. */
  maxResponseBytes: number;
}
export const DEFAULT_LIMITS: ToolLimits = Object.freeze({ timeoutMs: 15_000, maxResponseBytes: 5 * 1024 * 1024 });

/** An MCP CallToolResult: isError is absent on success; failures carry `{ error: { code, message } }`. */
export interface ToolResult {
  [key: string]: unknown;
  content: { type: 'text'; text: string }[];
  structuredContent: Record<string, unknown>;
  isError?: true;
}

export interface Logger {
  error(message: string, detail?: unknown): void;
  warn(message: string): void;
  /** Startup lines (where the skill listens, which tools it serves); console.log when absent. */
  info?(message: string): void;
}

export function toolError(code: string, message: string): ToolResult {
  return { content: [{ type: 'text', text: message }], structuredContent: { error: { code, message } }, isError: true };
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}

function toolSuccess(tool: SkillTool, value: unknown, limits: ToolLimits): ToolResult {
  if (!isPlainObject(value)) {
    const got = Array.isArray(value) ? 'an array' : value === null ? 'null' : typeof value;
    return toolError('TOOL_FAILED', `${tool.name} returned ${got}; a handler must return a plain object`);
  }
  let text: string;
  try {
    text = JSON.stringify(value);
  } catch (error) {
    return toolError('TOOL_FAILED', `${tool.name} returned a value that is not JSON (${(error as Error).message})`);
  }
  // The result carries the JSON twice: as text content and as structuredContent.
  if (2 * Buffer.byteLength(text) > limits.maxResponseBytes) {
    return toolError('RESPONSE_TOO_LARGE', `${tool.name} returned more than ${limits.maxResponseBytes} bytes`);
  }
  return { content: [{ type: 'text', text }], structuredContent: value };
}

export interface RunToolOptions {
  limits: ToolLimits;
  log: Logger;
  /** Aborted when the caller cancels (e.g. the MCP request is cancelled). */
  signal?: AbortSignal;
}

/**
 * The single pipeline of a tool call, shared by POST /mcp and executeTool:
 * permission (deny by default) -> input validation -> handler under a deadline -> result cap.
 * `contextFor` builds ctx around the signal that aborts on timeout.
 */
export async function runTool(
  tool: SkillTool,
  rawInput: unknown,
  contextFor: (signal: AbortSignal) => SkillContext,
  { limits, log, signal }: RunToolOptions,
): Promise<ToolResult> {
  const deadline = createDeadline(limits.timeoutMs, signal);
  const ctx = contextFor(deadline.signal);
  if (!mayCall(tool, ctx)) {
    return toolError('FORBIDDEN', `Not allowed to use ${tool.name}: the capability ${tool.capability} is not granted to the caller`);
  }
  const input = tool.schema.safeParse(rawInput ?? {});
  if (!input.success) return toolError('VALIDATION_ERROR', `Invalid input for ${tool.name}: ${formatIssues(input.error)}`);
  try {
    const outcome = await deadline.race(() => tool.handler(input.data, ctx));
    if (outcome === TIMED_OUT) return toolError('TOOL_TIMEOUT', `${tool.name} did not finish within ${limits.timeoutMs / 1000} s`);
    return toolSuccess(tool, outcome, limits);
  } catch (error) {
    if (error instanceof SkillError) return toolError(error.code, error.message);
    log.error(`${tool.name} failed`, error);
    return toolError('TOOL_FAILED', `${tool.name} failed: ${error instanceof Error ? error.message : String(error)}`);
  }
}
