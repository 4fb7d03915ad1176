import { ENDPOINTS, type EndpointName } from '@service/shared';
import { buildOpenApiDocument } from '@service/shared/openapi';
import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { ApiResponse } from './platform';

// ajv-formats ships CommonJS; its default export arrives wrapped under ESM.
const addFormats = ((addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ?? addFormatsModule) as unknown as (ajv: Ajv) => Ajv;

/**
 * OpenAPI 3.0 writes "any JSON value" as `{nullable: true}` with no type; Ajv refuses `nullable` without `type`,
 * so that one form is translated to the equivalent `{}` before compiling.
 */
function withoutUntypedNullable(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(withoutUntypedNullable);
  if (typeof node !== 'object' || node === null) return node;
  const entries = Object.entries(node).map(([key, value]) => [key, withoutUntypedNullable(value)] as const);
  const object = Object.fromEntries(entries) as Record<string, unknown>;
  if (object.nullable === true && object.type === undefined && object.$ref === undefined) delete object.nullable;
  return object;
}

const document = withoutUntypedNullable(buildOpenApiDocument('http://localhost/en/api/v1')) as object;
const ajv = new Ajv({ strict: false, allErrors: true });
addFormats(ajv);
ajv.addSchema(document, 'openapi');

const pointer = (...parts: string[]) => parts.map((part) => part.replace(/~/g, '~0').replace(/\//g, '~1')).join('/');

function problemsAt(ref: string, value: unknown): string[] {
  const validate = ajv.compile({ $ref: `openapi#/${ref}` });
  return validate(value) ? [] : (validate.errors ?? []).map((error) => `${error.instancePath} ${error.message}`);
}

/** Checks a live response against the OpenAPI document's schema for that endpoint and status; returns the problems. */
export function openApiProblems(name: EndpointName, response: ApiResponse<unknown>): string[] {
  const endpoint = ENDPOINTS[name];
  return problemsAt(
    pointer('paths', `/${endpoint.path}/`, endpoint.method.toLowerCase(), 'responses', String(response.status), 'content', 'application/json', 'schema'),
    response.body,
  );
}

/** Checks a request body, or one query parameter, against what the published document says the endpoint accepts. */
export function openApiRequestProblems(name: EndpointName, request: { body: unknown } | { query: string; value: string }): string[] {
  const endpoint = ENDPOINTS[name];
  const operation = ['paths', `/${endpoint.path}/`, endpoint.method.toLowerCase()];
  if ('body' in request) return problemsAt(pointer(...operation, 'requestBody', 'content', 'application/json', 'schema'), request.body);
  const parameters =
    (document as { paths: Record<string, Record<string, { parameters?: { name: string }[] }>> }).paths[`/${endpoint.path}/`]![endpoint.method.toLowerCase()]!
      .parameters ?? [];
  const index = parameters.findIndex((parameter) => parameter.name === request.query);
  if (index < 0) return [`${endpoint.path} takes no query parameter ${request.query}`];
  return problemsAt(pointer(...operation, 'parameters', String(index), 'schema'), request.value);
}
