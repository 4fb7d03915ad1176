import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One span as an OTLP receiver reads it: its name, ids, and attributes with their values unwrapped. */
export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  attributes: Record<string, unknown>;
  resource: Record<string, unknown>;
}

type AnyValue = { stringValue?: string; intValue?: number | string; doubleValue?: number; boolValue?: boolean; arrayValue?: { values?: AnyValue[] } };
type KeyValue = { key: string; value: AnyValue };
interface ExportTraceServiceRequest {
  resourceSpans?: {
    resource?: { attributes?: KeyValue[] };
    scopeSpans?: { spans?: { traceId: string; spanId: string; parentSpanId?: string; name: string; attributes?: KeyValue[] }[] }[];
  }[];
}

const unwrap = (value: AnyValue): unknown =>
  value.stringValue ??
  (value.intValue !== undefined ? Number(value.intValue) : undefined) ??
  value.doubleValue ??
  value.boolValue ??
  value.arrayValue?.values?.map(unwrap);
const attributesOf = (list: KeyValue[] = []) => Object.fromEntries(list.map(({ key, value }) => [key, unwrap(value)]));

/**
 * An OTLP/HTTP traces receiver on 127.0.0.1 (`POST /v1/traces`, the JSON encoding of ExportTraceServiceRequest that
 * the OpenTelemetry JS exporter sends), answering as a collector does (200 with an ExportTraceServiceResponse); it
 * keeps every span and the headers each export came with. `down()` makes it answer 503, as a collector that is out, until `up()`.
 */
export async function startOtlpReceiver() {
  const spans: ReceivedSpan[] = [];
  const headers: Record<string, string | string[] | undefined>[] = [];
  let unavailable = false;
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      if (request.method !== 'POST' || request.url !== '/v1/traces' || !request.headers['content-type']?.startsWith('application/json')) {
        response.writeHead(404).end();
        return;
      }
      if (unavailable) {
        response.writeHead(503).end();
        return;
      }
      headers.push(request.headers);
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as ExportTraceServiceRequest;
      for (const resourceSpans of body.resourceSpans ?? []) {
        const resource = attributesOf(resourceSpans.resource?.attributes);
        for (const span of (resourceSpans.scopeSpans ?? []).flatMap((scope) => scope.spans ?? [])) {
          spans.push({
            traceId: span.traceId,
            spanId: span.spanId,
            parentSpanId: span.parentSpanId || undefined,
            name: span.name,
            attributes: attributesOf(span.attributes),
            resource,
          });
        }
      }
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}/v1/traces`,
    spans,
    headers,
    down: () => {
      unavailable = true;
    },
    up: () => {
      unavailable = false;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
