import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { consoleLogger, type SkillServerOptions } from './config.js';
import type { Skill } from './define-skill.js';
import { createSkillHandler } from './handler.js';

/** Request bodies above this are refused with 413 before they are read into memory. */
const MAX_BODY_BYTES = 5 * 1024 * 1024;

export interface RunningSkill {
  /** Base URL, e.g. http://127.0.0.1:43121 */
  url: string;
  port: number;
  close(): Promise<void>;
  /** Sets (or replaces) the turn-token key without a restart, e.g. from the answer of skills/register. */
  setTurnTokenSecret(secret: string): void;
  [Symbol.asyncDispose](): Promise<void>;
}

class BodyTooLarge extends Error {}

/** Read with events: an async iterator over the request costs more than the small body it reads. */
function readBody(req: IncomingMessage): Promise<string> {
  if (Number(req.headers['content-length'] ?? 0) > MAX_BODY_BYTES) return Promise.reject(new BodyTooLarge());
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) return void chunks.push(chunk);
      // Past the cap: stop buffering and let the rest drain while the 413 goes out.
      req.off('data', onData);
      chunks.length = 0;
      reject(new BodyTooLarge());
    };
    req.on('data', onData);
    req.once('error', reject);
    req.once('end', () => resolve(chunks.length === 1 ? chunks[0]!.toString('utf8') : Buffer.concat(chunks).toString('utf8')));
  });
}

function headersOf(req: IncomingMessage): Headers {
  const headers = new Headers();
  const raw = req.rawHeaders;
  for (let i = 0; i + 1 < raw.length; i += 2) headers.append(raw[i] as string, raw[i + 1] as string);
  return headers;
}

/** Serves the skill over node:http. Port 0 (the default without env PORT) picks a free port. */
export async function startSkill(skill: Skill, options: SkillServerOptions = {}): Promise<RunningSkill> {
  const log = options.log ?? consoleLogger;
  const handle = createSkillHandler(skill, options);
  const server = createServer(async (req, res) => {
    let body: string | undefined;
    try {
      body = req.method === 'POST' ? await readBody(req) : undefined;
    } catch (error) {
      const tooLarge = error instanceof BodyTooLarge;
      res.writeHead(tooLarge ? 413 : 400, { 'content-type': 'application/json', connection: 'close' });
      res.end(
        JSON.stringify({
          error: {
            code: tooLarge ? 'PAYLOAD_TOO_LARGE' : 'BAD_REQUEST',
            message: tooLarge ? `Bodies are capped at ${MAX_BODY_BYTES} bytes` : 'The body could not be read',
          },
        }),
      );
      return;
    }
    const response = await handle({ method: req.method ?? 'GET', path: req.url ?? '/', headers: headersOf(req), body });
    res.writeHead(response.status, response.headers).end(response.body);
  });
  const port = options.port ?? Number(process.env.PORT ?? 0);
  const host = options.host ?? process.env.HOST ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const bound = (server.address() as AddressInfo).port;
  const shownHost = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;
  const close = () =>
    new Promise<void>((resolve, reject) => {
      server.close((error) => (error ? reject(error) : resolve()));
      server.closeAllConnections();
    });
  const url = `http://${shownHost}:${bound}`;
  const info = log.info ?? console.log;
  info(`${skill.code} ${skill.version} listening on ${url} (MCP: ${url}/mcp, manifest: ${url}/manifest)`);
  const tools = [...skill.tools.values()];
  info(`tools: ${tools.map((tool) => `${tool.name}${tool.annotations?.readOnlyHint ? ' (read-only)' : ' (action)'}`).join(', ')}`);
  if (tools.some((tool) => !tool.annotations)) {
    info(
      'tools without annotations count as actions: a read_only agent run asks before calling them. Mark tools that only read with annotations: { readOnlyHint: true }',
    );
  }
  return { url, port: bound, close, setTurnTokenSecret: handle.setTurnTokenSecret, [Symbol.asyncDispose]: close };
}
