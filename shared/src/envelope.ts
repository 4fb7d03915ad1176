import { STATUS_CODES } from 'node:http';
import type { ErrorCode } from './errors';

/** The response envelope every API response carries. */
export interface Envelope<T = unknown> {
  status: boolean;
  code: number;
  title: string;
  data: T;
  msg: string;
  error?: { code: ErrorCode; field?: string };
}

export function titleFor(httpStatus: number): string {
  return STATUS_CODES[httpStatus] ?? 'Unknown';
}

export function success<T>(httpStatus: number, data: T, msg = 'OK'): Envelope<T> {
  return { status: true, code: httpStatus, title: titleFor(httpStatus), data, msg };
}

export function failure(httpStatus: number, code: ErrorCode, msg: string, field?: string): Envelope<Record<string, never>> {
  return {
    status: false,
    code: httpStatus,
    title: titleFor(httpStatus),
    data: {},
    msg,
    error: field === undefined ? { code } : { code, field },
  };
}
