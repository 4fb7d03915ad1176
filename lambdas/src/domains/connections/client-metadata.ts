import { OAuthRefusal } from '@service/shared';
import { request as httpsRequest, Agent as HttpsAgent } from 'node:https';
import { LRUCache } from 'lru-cache';
import * as z from 'zod';
import type { PlatformConfig } from '../../infra/config/config';
import { checkOutboundUrl, guardedLookup, OutboundBlockedError, type OutboundPolicy } from '../../infra/net/outbound-guard';
import { redirectUriProblem } from './redirect-uris';

/**
 * Client ID Metadata Documents (draft-ietf-oauth-client-id-metadata-document, MCP 2025-11-25): a client whose
 * `client_id` is an https URL publishes its metadata there. We fetch it through the outbound guard (https only, every
 * resolved address public, no redirects), bounded in size and time, and keep it in a bounded per-container cache.
 */
export interface ClientMetadataDocument {
  clientId: string;
  clientName: string;
  clientUri: string | null;
  redirectUris: string[];
  /** The host the document was fetched from: the domain the consent page shows as verified. */
  verifiedDomain: string;
}

const MAX_DOCUMENT_BYTES = 16 * 1024;
const FETCH_TIMEOUT_MS = 5_000;
const CACHE_MIN_MS = 60_000;
const CACHE_DEFAULT_MS = 60 * 60_000;
const CACHE_MAX_MS = 24 * 60 * 60_000;

const Document = z.object({
  client_id: z.string(),
  client_name: z.string().min(1).max(200).optional(),
  client_uri: z.url().optional(),
  redirect_uris: z.array(z.string()).min(1).max(20),
  token_endpoint_auth_method: z.literal('none').optional(),
  grant_types: z.array(z.string()).optional(),
  response_types: z.array(z.string()).optional(),
});

/** A client_id that names a metadata document: https with a path other than `/` (the client SDKs check the same). */
export function isMetadataDocumentUrl(clientId: string): boolean {
  try {
    const url = new URL(clientId);
    return url.protocol === 'https:' && url.pathname !== '/' && url.pathname !== '';
  } catch {
    return false;
  }
}

const cache = new LRUCache<string, ClientMetadataDocument>({ max: 500 });
const agents = new WeakMap<PlatformConfig, HttpsAgent>();

function agentFor(config: PlatformConfig, policy: OutboundPolicy): HttpsAgent {
  let agent = agents.get(config);
  if (!agent) {
    agent = new HttpsAgent({ keepAlive: true, lookup: guardedLookup(policy), ...(config.clientMetadataCa ? { ca: config.clientMetadataCa } : {}) });
    agents.set(config, agent);
  }
  return agent;
}

function cacheMs(cacheControl: string | undefined): number {
  if (cacheControl && /no-store|no-cache/i.test(cacheControl)) return CACHE_MIN_MS;
  const maxAge = /max-age=(\d+)/i.exec(cacheControl ?? '')?.[1];
  if (maxAge === undefined) return CACHE_DEFAULT_MS;
  return Math.min(CACHE_MAX_MS, Math.max(CACHE_MIN_MS, Number(maxAge) * 1000));
}

function download(url: URL, agent: HttpsAgent): Promise<{ body: string; cacheControl?: string }> {
  return new Promise((resolve, reject) => {
    const request = httpsRequest(url, { agent, method: 'GET', headers: { accept: 'application/json' }, timeout: FETCH_TIMEOUT_MS }, (response) => {
      if (response.statusCode !== 200) {
        response.resume();
        return reject(
          new OAuthRefusal('invalid_client', `The client metadata document at ${url.href} answered ${response.statusCode} (redirects are not followed)`),
        );
      }
      const chunks: Buffer[] = [];
      let size = 0;
      response.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > MAX_DOCUMENT_BYTES) {
          request.destroy();
          return reject(new OAuthRefusal('invalid_client', `The client metadata document at ${url.href} is larger than ${MAX_DOCUMENT_BYTES} bytes`));
        }
        chunks.push(chunk);
      });
      response.on('end', () =>
        resolve({
          body: Buffer.concat(chunks).toString('utf8'),
          ...(response.headers['cache-control'] ? { cacheControl: response.headers['cache-control'] } : {}),
        }),
      );
      response.on('error', reject);
    });
    request.on('timeout', () =>
      request.destroy(new OAuthRefusal('invalid_client', `The client metadata document at ${url.href} did not answer within ${FETCH_TIMEOUT_MS / 1000} s`)),
    );
    request.on('error', (error) =>
      reject(error instanceof OutboundBlockedError ? new OAuthRefusal('invalid_client', `Client metadata document refused: ${error.message}`) : error),
    );
    request.end();
  });
}

function parse(url: URL, body: string): ClientMetadataDocument {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    throw new OAuthRefusal('invalid_client', `The client metadata document at ${url.href} is not JSON`);
  }
  const parsed = Document.safeParse(json);
  if (!parsed.success)
    throw new OAuthRefusal(
      'invalid_client',
      `The client metadata document at ${url.href} is invalid: ${parsed.error.issues[0]?.path.join('.')} ${parsed.error.issues[0]?.message}`,
    );
  if (parsed.data.client_id !== url.href)
    throw new OAuthRefusal('invalid_client', `The client metadata document names client_id ${parsed.data.client_id}, not its own URL ${url.href}`);
  const problem = parsed.data.redirect_uris.map(redirectUriProblem).find(Boolean);
  if (problem) throw new OAuthRefusal('invalid_client', `The client metadata document lists a redirect URI we do not accept: ${problem}`);
  return {
    clientId: url.href,
    clientName: parsed.data.client_name ?? url.hostname,
    clientUri: parsed.data.client_uri ?? null,
    redirectUris: parsed.data.redirect_uris,
    verifiedDomain: url.hostname,
  };
}

/** The metadata document of an https client_id, from the cache or fetched through the outbound guard. */
export async function fetchClientMetadata(config: PlatformConfig, clientId: string): Promise<ClientMetadataDocument> {
  const hit = cache.get(clientId);
  if (hit) return hit;
  const policy: OutboundPolicy = { allowLocal: config.clientMetadataAllowLocal };
  let url: URL;
  try {
    url = checkOutboundUrl(clientId, policy);
  } catch (error) {
    if (error instanceof OutboundBlockedError) throw new OAuthRefusal('invalid_client', `Client metadata document refused: ${error.message}`);
    throw error;
  }
  if (url.protocol !== 'https:') throw new OAuthRefusal('invalid_client', 'A client metadata document must be served over https');
  const { body, cacheControl } = await download(url, agentFor(config, policy));
  const document = parse(url, body);
  cache.set(clientId, document, { ttl: cacheMs(cacheControl) });
  return document;
}
