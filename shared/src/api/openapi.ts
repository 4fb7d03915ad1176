import { OpenAPIRegistry, OpenApiGeneratorV3 } from '@asteasolutions/zod-to-openapi';
import * as z from 'zod';
import { ERROR_CODES } from '../errors';
import { ENDPOINTS, SUPPORTED_LANGUAGES, type EndpointContract } from './endpoints';
import { operationIdOf, RESOURCE_TAGS, resourceOf } from './operations';

const envelopeOf = (data: z.ZodType) => z.object({ status: z.literal(true), code: z.number().int(), title: z.string(), data, msg: z.string() });

export const ErrorEnvelope = z
  .object({
    status: z.literal(false),
    code: z.number().int(),
    title: z.string(),
    data: z.object({}),
    msg: z.string(),
    error: z.object({ code: z.enum(ERROR_CODES as [string, ...string[]]), field: z.string().optional() }),
  })
  .meta({ id: 'ErrorEnvelope' });

const errorResponse = (description: string) => ({ description, content: { 'application/json': { schema: ErrorEnvelope } } });

/** An API key (acting as admin) or a dashboard session; `public` endpoints need neither, `session` ones a signed-in person. */
/** The 409 codes an endpoint may answer: its business conflicts, and IDEMPOTENCY_CONFLICT where it takes an Idempotency-Key. */
function conflicts(endpoint: EndpointContract): string[] {
  const codes = endpoint.idempotent ? ['IDEMPOTENCY_CONFLICT'] : [];
  if (endpoint.path.startsWith('members/')) codes.push('LAST_OWNER');
  if (endpoint.path === 'agents/command_cancel') codes.push('RUN_NOT_CANCELLABLE');
  if (endpoint.path === 'agents/command_approve' || endpoint.path === 'agents/command_reject') codes.push('APPROVAL_NOT_PENDING', 'APPROVAL_EXPIRED');
  return codes;
}

function securityOf(endpoint: EndpointContract): Record<string, string[]>[] {
  if (endpoint.access === 'public') return [];
  // A file of a visitor's mail is for signed-in teammates only (no key downloads it).
  if (endpoint.access === 'session' || endpoint.file) return [{ Session: [] }];
  return [{ ApiKey: [] }, { Bearer: [] }, { Session: [] }];
}

/** An SSE answer: the description lists the events; the schema is any one event's `data` (each event's own is named). */
const streamResponse = (stream: NonNullable<EndpointContract['stream']>) => ({
  description: stream.description,
  content: {
    'text/event-stream': {
      schema: z
        .union(Object.values(stream.events).map((event) => event.schema) as [z.ZodType, z.ZodType, ...z.ZodType[]])
        .meta({ description: 'The `data:` of one event' }),
    },
  },
});

function register(registry: OpenAPIRegistry, endpoint: EndpointContract): void {
  const headers = endpoint.idempotent
    ? z.object({ 'Idempotency-Key': z.string().max(128).optional().meta({ description: 'Repeat-safe key; an identical repeat replays the stored response' }) })
    : endpoint.stream
      ? z.object({ 'Last-Event-ID': z.string().optional().meta({ description: 'The `id:` of the last event received: the stream goes on after it' }) })
      : undefined;
  registry.registerPath({
    method: endpoint.method === 'GET' ? 'get' : 'post',
    path: `/${endpoint.path}/`,
    operationId: operationIdOf(endpoint),
    tags: [resourceOf(endpoint)],
    summary: endpoint.summary,
    security: securityOf(endpoint),
    request: {
      ...(endpoint.query ? { query: endpoint.query as z.ZodObject } : {}),
      ...(headers ? { headers } : {}),
      ...(endpoint.body ? { body: { required: true, content: { 'application/json': { schema: endpoint.body } } } } : {}),
    },
    responses: {
      [endpoint.status]: endpoint.stream
        ? streamResponse(endpoint.stream)
        : endpoint.file
          ? { description: endpoint.file.description, content: { 'application/octet-stream': { schema: z.string().meta({ format: 'binary' }) } } }
          : { description: 'Success', content: { 'application/json': { schema: envelopeOf(endpoint.data) } } },
      400: errorResponse('VALIDATION_ERROR or SCHEMA_INVALID'),
      401: errorResponse('API_KEY_REQUIRED or API_KEY_INVALID'),
      403: errorResponse(`PLAN_REQUIRED, or FORBIDDEN (needs ${endpoint.access}; or a session request without its CSRF token or from another origin)`),
      404: errorResponse('NOT_FOUND, AGENT_NOT_FOUND or RUN_NOT_FOUND'),
      405: errorResponse('METHOD_NOT_ALLOWED'),
      429: errorResponse('RATE_LIMITED; honour Retry-After'),
      ...(conflicts(endpoint).length > 0 ? { 409: errorResponse(conflicts(endpoint).join(' or ')) } : {}),
      ...(endpoint.method === 'POST' ? { 413: errorResponse('PAYLOAD_TOO_LARGE') } : {}),
    },
  });
}

function generateDocument() {
  const registry = new OpenAPIRegistry();
  registry.registerComponent('securitySchemes', 'ApiKey', { type: 'apiKey', in: 'header', name: 'X-Service-Api-Key' });
  registry.registerComponent('securitySchemes', 'Bearer', { type: 'http', scheme: 'bearer' });
  registry.registerComponent('securitySchemes', 'Session', {
    type: 'apiKey',
    in: 'cookie',
    name: 'svc_session',
    description:
      'A dashboard session (auth/email/verify or auth/passkey/signin); POSTs also need X-CSRF-Token and a same-origin Origin, workspace endpoints X-Workspace-Id',
  });
  for (const endpoint of Object.values(ENDPOINTS)) register(registry, endpoint);
  return new OpenApiGeneratorV3(registry.definitions).generateDocument({
    openapi: '3.0.3',
    info: {
      title: 'Service REST API',
      version: '1.0.0',
      description: `Company REST API. Every response is the envelope {status, code, title, data, msg, error?}. Languages: ${SUPPORTED_LANGUAGES.join(', ')}.`,
    },
    servers: [],
    tags: Object.entries(RESOURCE_TAGS).map(([name, description]) => ({ name, description })),
  });
}

let generated: ReturnType<typeof generateDocument> | undefined;

/**
 * The OpenAPI 3.0 document of the REST API, generated from the same zod schemas that validate requests: once per
 * container, on first use, then served with the caller's server URL. Imported from `@service/shared/openapi` by the
 * one handler that serves it, so the generator rides in no other bundle.
 */
export function buildOpenApiDocument(serverUrl: string) {
  generated ??= generateDocument();
  return { ...generated, servers: [{ url: serverUrl }] };
}
