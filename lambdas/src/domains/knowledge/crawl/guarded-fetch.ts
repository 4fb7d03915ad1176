import { request as httpRequest, type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import { checkOutboundUrl, createGuardedAgents, OutboundBlockedError, type OutboundPolicy, type Resolver } from '../../../infra/net/outbound-guard';
import { CrawlError } from './errors';
import { CRAWLER_USER_AGENT } from './limits';

export interface GuardedRequest {
  maxBytes: number;
  maxRedirects: number;
  timeoutMs: number;
  headers?: Record<string, string>;
  /** Asked before each redirect is followed: null to follow it, or why not (out of the site, disallowed by robots.txt). */
  mayFollow?: (url: string) => string | null;
}

export interface GuardedResponse {
  status: number;
  /** The URL that answered, after the redirects followed. */
  url: string;
  headers: IncomingHttpHeaders;
  /** The body, decompressed, for a 2xx answer; empty for any other (its body is never read). */
  body: Uint8Array;
}

/**
 * GET through the outbound guard (spec 3): the URL's form and every address its host resolves to are checked, on
 * the first request and on every redirect, which is followed by hand and asked of `mayFollow` too. The body is read
 * as a stream and decompressed as it comes; past `maxBytes` (compressed or not) the connection is dropped, so neither
 * a huge file nor a compression bomb is ever held in memory. Failures are CrawlErrors.
 */
export interface GuardedFetch {
  get(url: string, request: GuardedRequest): Promise<GuardedResponse>;
  close(): void;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/** `allowLocal` is config.webhookAllowLocal; `resolve` replaces DNS in tests (names of a test site on loopback). */
export function createGuardedFetch(policy: OutboundPolicy, resolve?: Resolver): GuardedFetch {
  const agents = createGuardedAgents(policy, resolve);
  return {
    async get(start, request) {
      const signal = AbortSignal.timeout(request.timeoutMs);
      let url = checked(start, policy);
      for (let redirects = 0; ; redirects += 1) {
        const response = await send(url, request, signal);
        const status = response.statusCode ?? 0;
        const location = response.headers.location;
        if (REDIRECTS.has(status) && location) {
          response.destroy();
          if (redirects >= request.maxRedirects) throw new CrawlError('too_many_redirects', `more than ${request.maxRedirects} redirects from ${start}`);
          url = checked(new URL(location, url).href, policy);
          const refusal = request.mayFollow?.(url.href);
          if (refusal) throw new CrawlError('out_of_scope', `${url.href} (a redirect from ${start}) is not followed: ${refusal}`);
          continue;
        }
        if (status < 200 || status > 299) {
          response.destroy();
          return { status, url: url.href, headers: response.headers, body: new Uint8Array() };
        }
        const body = await readBody(response, request.maxBytes, signal).catch((error: unknown) => {
          throw failure(error, signal);
        });
        return { status, url: url.href, headers: response.headers, body };
      }
    },
    close: () => agents.destroy(),
  };

  function send(url: URL, request: GuardedRequest, signal: AbortSignal): Promise<IncomingMessage> {
    return new Promise((resolveResponse, reject) => {
      const outgoing = (url.protocol === 'https:' ? httpsRequest : httpRequest)(
        url,
        {
          method: 'GET',
          agent: agents.for(url),
          signal,
          headers: { 'user-agent': CRAWLER_USER_AGENT, 'accept-encoding': 'gzip, deflate, br', ...request.headers },
        },
        resolveResponse,
      );
      outgoing.on('error', (error) => reject(failure(error, signal)));
      outgoing.end();
    });
  }
}

function checked(raw: string, policy: OutboundPolicy): URL {
  try {
    const url = checkOutboundUrl(raw, policy);
    url.hash = '';
    return url;
  } catch (error) {
    throw failure(error);
  }
}

function failure(error: unknown, signal?: AbortSignal): CrawlError {
  if (error instanceof CrawlError) return error;
  if (signal?.aborted) return new CrawlError('timeout', 'the site did not answer in time');
  if (error instanceof OutboundBlockedError) return new CrawlError('blocked', error.message);
  if (error instanceof Error && error.cause instanceof OutboundBlockedError) return new CrawlError('blocked', error.cause.message);
  const code = (error as NodeJS.ErrnoException).code;
  return new CrawlError('network', `the site could not be reached (${code ?? (error instanceof Error ? error.message : String(error))})`);
}

const megabytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

function decoderFor(encoding: string | undefined): Transform | null {
  const name = (encoding ?? 'identity').trim().toLowerCase();
  if (name === 'gzip' || name === 'x-gzip') return createGunzip();
  if (name === 'deflate') return createInflate();
  if (name === 'br') return createBrotliDecompress();
  if (name === 'identity' || name === '') return null;
  throw new CrawlError('malformed', `the site answered in an encoding we do not read (${name})`);
}

async function readBody(response: IncomingMessage, maxBytes: number, signal: AbortSignal): Promise<Uint8Array> {
  const announced = Number(response.headers['content-length']);
  if (announced > maxBytes) {
    response.destroy();
    throw new CrawlError('too_large', `the response announces ${megabytes(announced)}, more than the ${megabytes(maxBytes)} a page may weigh`);
  }
  // Set when a bound is passed: the pipeline then fails with whichever stream it tore down first, this is the why.
  let overflow: CrawlError | null = null;
  const tooLarge = () => {
    overflow = new CrawlError('too_large', `the response is larger than the ${megabytes(maxBytes)} a page may weigh (it was not read past that)`);
    return overflow;
  };
  let received = 0;
  // The bytes on the wire are bounded too, not only the decoded ones.
  const wire = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      received += chunk.length;
      done(received > maxBytes ? tooLarge() : null, chunk);
    },
  });
  const chunks: Buffer[] = [];
  let size = 0;
  // Decoded as it streams: a compression bomb stops at maxBytes of output, it is never inflated whole.
  const collect = async (source: AsyncIterable<Buffer>) => {
    for await (const chunk of source) {
      size += chunk.length;
      if (size > maxBytes) throw tooLarge();
      chunks.push(chunk);
    }
  };
  const decoder = decoderFor(response.headers['content-encoding']);
  try {
    await (decoder ? pipeline(response, wire, decoder, collect, { signal }) : pipeline(response, wire, collect, { signal }));
  } catch (error) {
    throw overflow ?? error;
  }
  return new Uint8Array(Buffer.concat(chunks, size));
}
