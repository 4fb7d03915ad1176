import * as z from 'zod';
import type { EndpointContract } from './contract';
import { isoDateTime } from './primitives';

const contract = <const T extends EndpointContract>(endpoint: T): T => endpoint;

export const TELEMETRY_LIMITS = { maxHeaders: 10, maxHeaderValueLength: 4096, maxEndpointLength: 2048 } as const;

// An HTTP header name (RFC 9110 token); the ones the exporter sets itself are the platform's.
const HEADER_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]{1,100}$/;
const RESERVED_HEADERS = new Set(['content-type', 'content-length', 'host', 'connection', 'transfer-encoding', 'user-agent']);

const Headers = z
  .record(
    z
      .string()
      .regex(HEADER_NAME, { error: "a header name is a token of letters, digits and !#$%&'*+-.^_`|~" })
      .refine((name) => !RESERVED_HEADERS.has(name.toLowerCase()), { error: 'that header is set by the exporter' }),
    z
      .string()
      .min(1)
      .max(TELEMETRY_LIMITS.maxHeaderValueLength)
      .regex(/^[^\r\n\0]*$/, { error: 'a header value is one line' }),
  )
  .refine((headers) => Object.keys(headers).length <= TELEMETRY_LIMITS.maxHeaders, { error: `at most ${TELEMETRY_LIMITS.maxHeaders} headers` });

export const TelemetrySettingsUpdateBody = z.strictObject({
  otlp_endpoint: z
    .url({
      protocol: /^https?$/,
      error: 'otlp_endpoint must be an absolute https URL (the OTLP/HTTP traces endpoint, e.g. https://collector.example.com/v1/traces)',
    })
    .max(TELEMETRY_LIMITS.maxEndpointLength)
    .nullable()
    .meta({ description: 'Where spans go over OTLP/HTTP (JSON); null turns tracing off' }),
  headers: Headers.optional().meta({
    description: "Sent with every export (your vendor's key); write-only, never shown again. Omitted: kept as they are; {}: removed",
  }),
  include_content: z
    .boolean()
    .optional()
    .meta({ description: "Record the messages, the model's answers and tool arguments and results on the spans (off by default)" }),
});

export const TelemetrySettings = z
  .object({
    otlp_endpoint: z.string().nullable(),
    header_names: z.array(z.string()).meta({ description: 'The names of the headers set; their values are never shown' }),
    include_content: z.boolean(),
    updated_at: isoDateTime.nullable(),
    spans: z
      .object({
        exported: z.number().int(),
        dropped: z.number().int().meta({ description: 'Spans not delivered: the queue was full or the collector did not take them' }),
        last_error: z.string().nullable(),
        last_error_at: isoDateTime.nullable(),
      })
      .meta({ description: 'What the platform delivered since the endpoint was set' }),
  })
  .meta({ id: 'TelemetrySettings' });

export const TELEMETRY_ENDPOINTS = {
  telemetrySettingsGet: contract({
    path: 'telemetry/settings_get',
    method: 'GET',
    summary: "The workspace's trace export: its OTLP endpoint, header names, whether contents are recorded, and spans delivered and dropped",
    data: z.object({ settings: TelemetrySettings }),
    status: 200,
    access: 'read',
  }),
  telemetrySettingsUpdate: contract({
    path: 'telemetry/settings_update',
    method: 'POST',
    summary: 'Send OpenTelemetry spans of every run and widget reply (GenAI semantic conventions) to an OTLP/HTTP endpoint, or stop (otlp_endpoint null)',
    body: TelemetrySettingsUpdateBody,
    data: z.object({ settings: TelemetrySettings }),
    status: 200,
    access: 'manage',
  }),
} as const;
