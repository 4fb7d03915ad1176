import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { performance } from 'node:perf_hooks';
import { EVENT_HEADER, signedHeaders } from '@service/webhooks';
import { checkOutboundUrl, createGuardedAgents, OutboundBlockedError, type OutboundPolicy } from '../../infra/net/outbound-guard';
import { lanes } from './lanes';

export interface AttemptResult {
  ok: boolean;
  httpStatus?: number;
  durationMs: number;
  error?: string;
}

export interface SignedDelivery {
  url: string;
  /** The event id: the webhook-id of every attempt and redelivery, so receivers deduplicate on it. */
  id: string;
  event: string;
  payload: string;
  signingSecret: string;
  /** Signing time; each attempt passes its own, so every attempt carries a fresh signature. */
  signedAt: Date;
  /** Further headers (a skill's bearer and turn token). */
  headers?: Record<string, string>;
}

export interface WebhookSender {
  send(delivery: SignedDelivery): Promise<AttemptResult>;
  close(): void;
}

/** Spec: no response within 5 seconds is a failure. */
export const DELIVERY_TIMEOUT_MS = 5_000;

const describe = (error: unknown): string => {
  if (error instanceof OutboundBlockedError) return `blocked: ${error.message}`;
  if (error instanceof Error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code && !error.message.includes(code) ? `${code}: ${error.message}` : error.message;
  }
  return String(error);
};

/**
 * Requests a sender has open to one host at most: the others wait their turn before their timeout starts. A receiver
 * is not met with every attempt a container has at once (a local platform's deliverer runs many batches side by
 * side), and the connections kept alive to it are reused.
 */
const MAX_REQUESTS_PER_HOST = 64;

/**
 * POSTs signed deliveries through the outbound guard: one attempt per call, redirects not followed (a 3xx is a
 * failure), any 2xx acknowledges, the timeout covers connecting and the response headers.
 */
export function createWebhookSender(policy: OutboundPolicy, timeoutMs = DELIVERY_TIMEOUT_MS): WebhookSender {
  const agents = createGuardedAgents(policy);
  const perHost = lanes(MAX_REQUESTS_PER_HOST);
  return {
    send(delivery) {
      let url: URL;
      try {
        url = checkOutboundUrl(delivery.url, policy);
      } catch (error) {
        return Promise.resolve({ ok: false, durationMs: 0, error: describe(error) });
      }
      return perHost(url.host, () => post(url, delivery));
    },
    close: () => agents.destroy(),
  };

  function post(url: URL, delivery: SignedDelivery): Promise<AttemptResult> {
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    const body = Buffer.from(delivery.payload, 'utf8');
    return new Promise<AttemptResult>((resolve) => {
      let settled = false;
      const finish = (result: Omit<AttemptResult, 'durationMs'>) => {
        if (settled) return;
        settled = true;
        resolve({ ...result, durationMs: elapsed() });
      };
      const request = (url.protocol === 'https:' ? httpsRequest : httpRequest)(
        url,
        {
          method: 'POST',
          agent: agents.for(url),
          headers: {
            ...delivery.headers,
            'content-type': 'application/json',
            'content-length': String(body.length),
            'user-agent': 'Service-Webhooks/1',
            [EVENT_HEADER]: delivery.event,
            ...signedHeaders(delivery.signingSecret, { id: delivery.id, timestamp: Math.floor(delivery.signedAt.getTime() / 1000), rawBody: body }),
          },
        },
        (response) => {
          const status = response.statusCode ?? 0;
          const ok = status >= 200 && status < 300;
          finish({ ok, httpStatus: status, ...(ok ? {} : { error: `HTTP ${status}` }) });
          // The response body is not used; drain it so the connection can be reused, within the same deadline.
          response.on('end', () => clearTimeout(timer));
          response.resume();
        },
      );
      const timer = setTimeout(() => request.destroy(new Error(`timeout: no response within ${timeoutMs / 1000} s`)), timeoutMs);
      request.on('error', (error) => {
        clearTimeout(timer);
        finish({ ok: false, error: describe(error) });
      });
      request.end(body);
    });
  }
}
