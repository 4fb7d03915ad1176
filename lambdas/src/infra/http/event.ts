import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { failure, success, type ErrorCode } from '@service/shared';

export type HttpEvent = APIGatewayProxyEventV2;
export type HttpResult = APIGatewayProxyStructuredResultV2 & { headers: Record<string, string> };

/** Header lookup by lower-case name (API Gateway v2 already lower-cases; the local server does the same). */
export const header = (event: HttpEvent, name: string): string | undefined => event.headers[name.toLowerCase()];

/** The raw body bytes as text; API Gateway may hand them over base64-encoded. */
export const rawBody = (event: HttpEvent): string =>
  event.body === undefined ? '' : event.isBase64Encoded ? Buffer.from(event.body, 'base64').toString('utf8') : event.body;

export const rawBodyBytes = (event: HttpEvent): number =>
  event.body === undefined ? 0 : event.isBase64Encoded ? Buffer.from(event.body, 'base64').length : Buffer.byteLength(event.body);

const JSON_HEADERS = { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' };

export function jsonResult(statusCode: number, payload: unknown, headers: Record<string, string> = {}): HttpResult {
  return { statusCode, headers: { ...JSON_HEADERS, ...headers }, body: JSON.stringify(payload) };
}

export const successResult = (statusCode: number, data: unknown, msg: string, headers?: Record<string, string>) =>
  jsonResult(statusCode, success(statusCode, data, msg), headers);

export const failureResult = (statusCode: number, code: ErrorCode, msg: string, field?: string, headers?: Record<string, string>) =>
  jsonResult(statusCode, failure(statusCode, code, msg, field), headers);
