/**
 * The callers of bench/skill-calls.ts: one node:http keep-alive client for every server, each server in a process of
 * its own (skill-calls-server.ts), so the callers keep this process to themselves. A call that is not answered 200
 * with a structured, non-error result fails the bench.
 */
import { Agent, request } from 'node:http';

export interface Target {
  url: string;
  headers: Record<string, string>;
  /** A header whose value changes every `every` calls (a turn token per turn), taking `values` in order. */
  rotating?: { header: string; values: string[]; every: number };
}

/** A keep-alive agent holding one socket per call in flight and server. */
export const keepAliveAgent = (concurrency: number) => new Agent({ keepAlive: true, maxSockets: concurrency });

/** A task that POSTs `body` to the target once per run. */
export function caller(agent: Agent, target: Target, body: string): () => Promise<void> {
  let calls = 0;
  const fixed = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'content-length': String(Buffer.byteLength(body)),
    ...target.headers,
  };
  return () => {
    const { rotating } = target;
    const headers = rotating ? { ...fixed, [rotating.header]: rotating.values[Math.floor(calls / rotating.every) % rotating.values.length]! } : fixed;
    calls++;
    return new Promise((resolve, reject) => {
      const req = request(target.url, { method: 'POST', agent, headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('error', reject);
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          const reply = JSON.parse(text) as { result?: { isError?: boolean; structuredContent?: unknown } };
          if (res.statusCode !== 200 || !reply.result?.structuredContent || reply.result.isError)
            reject(new Error(`${target.url} answered ${res.statusCode}: ${text.slice(0, 300)}`));
          else resolve();
        });
      });
      req.on('error', reject);
      req.end(body);
    });
  };
}
