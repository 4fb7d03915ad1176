import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import { checkOutboundUrl, createGuardedAgents, KEEP_ALIVE_AGENT_OPTIONS, type OutboundPolicy } from '../../infra/net/outbound-guard';

/** Spec: a tool response body is capped at 5 MB. */
export const MAX_SKILL_RESPONSE_BYTES = 5 * 1024 * 1024;

export class SkillResponseTooLargeError extends Error {
  constructor(limit: number) {
    super(`The skill's response exceeded ${limit} bytes`);
    this.name = 'SkillResponseTooLargeError';
  }
}

const NULL_BODY_STATUSES = new Set([101, 204, 205, 304]);

// Keep-alive agents for the life of the process (a Lambda container): one guarded pair per policy, one trusted pair
// for the platform's own skills, whose addresses come from the platform's configuration and not from a customer.
const guardedAgents = new Map<boolean, ReturnType<typeof createGuardedAgents>>();
const trustedAgents = { http: new HttpAgent(KEEP_ALIVE_AGENT_OPTIONS), https: new HttpsAgent(KEEP_ALIVE_AGENT_OPTIONS) };

function agentFor(url: URL, guard: OutboundPolicy | undefined): HttpAgent {
  if (!guard) return url.protocol === 'https:' ? trustedAgents.https : trustedAgents.http;
  let agents = guardedAgents.get(guard.allowLocal);
  if (!agents) guardedAgents.set(guard.allowLocal, (agents = createGuardedAgents(guard)));
  return agents.for(url);
}

/** A web stream over the response that fails once more than `limit` bytes arrive, and stops reading then. */
function cappedBody(response: IncomingMessage, limit: number): ReadableStream<Uint8Array> {
  let size = 0;
  let done = false;
  return new ReadableStream({
    start(controller) {
      const finish = (error?: Error) => {
        if (done) return;
        done = true;
        if (error) controller.error(error);
        else controller.close();
      };
      response.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > limit) {
          finish(new SkillResponseTooLargeError(limit));
          response.destroy();
        } else if (!done) controller.enqueue(new Uint8Array(chunk));
      });
      response.on('end', () => finish());
      response.on('error', (error) => finish(error));
    },
    cancel() {
      done = true;
      response.destroy();
    },
  });
}

/**
 * The fetch the MCP client uses to reach a skill, over node:http so that a skill a customer chose (`guard` given)
 * goes through the outbound guard: its URL form is checked, and every connection's address is checked at lookup.
 * Redirects are not followed. Response bodies stream (SSE works) and fail past `maxResponseBytes`.
 */
export function skillFetch(guard: OutboundPolicy | undefined, maxResponseBytes = MAX_SKILL_RESPONSE_BYTES): FetchLike {
  return (input, init = {}) =>
    new Promise<Response>((resolve, reject) => {
      const url = guard ? checkOutboundUrl(String(input), guard) : new URL(String(input));
      const headers = new Headers(init.headers);
      const body = init.body === undefined || init.body === null ? undefined : Buffer.from(String(init.body), 'utf8');
      if (body) headers.set('content-length', String(body.length));
      const request = (url.protocol === 'https:' ? httpsRequest : httpRequest)(
        url,
        { method: init.method ?? 'GET', agent: agentFor(url, guard), headers: Object.fromEntries(headers), ...(init.signal ? { signal: init.signal } : {}) },
        (response) => {
          const responseHeaders = new Headers();
          for (const [name, value] of Object.entries(response.headers)) {
            if (value !== undefined) responseHeaders.set(name, Array.isArray(value) ? value.join(', ') : value);
          }
          const status = response.statusCode ?? 502;
          const hasBody = !NULL_BODY_STATUSES.has(status);
          if (!hasBody) response.resume();
          resolve(new Response(hasBody ? cappedBody(response, maxResponseBytes) : null, { status, headers: responseHeaders }));
        },
      );
      request.on('error', reject);
      request.end(body);
    });
}
