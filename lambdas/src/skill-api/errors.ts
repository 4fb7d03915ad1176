import { ApiError, titleFor } from '@service/shared';
import { jsonResult, type HttpResult } from '../http/event';

/**
 * Failures particular to the skill-facing routes. Codes a skill sees in ServiceApiError.code; the envelope is the
 * API's own, so `serviceApi` reads them like any other error.
 */
export const SKILL_API_ERRORS = {
  TURN_TOKEN_REQUIRED: 401,
  TURN_TOKEN_INVALID: 401,
  TURN_TOKEN_EXPIRED: 401,
  MASTER_KEY_REQUIRED: 401,
  MASTER_KEY_INVALID: 401,
  FORBIDDEN: 403,
} as const;

export class SkillApiError extends Error {
  readonly status: number;
  constructor(
    readonly code: keyof typeof SKILL_API_ERRORS,
    message: string,
  ) {
    super(message);
    this.status = SKILL_API_ERRORS[code];
  }
}

export function failureOf(error: unknown, path: string): HttpResult {
  const known = error instanceof SkillApiError || error instanceof ApiError ? error : undefined;
  if (!known) console.error('skill api error', { path, error });
  const status = known?.status ?? 500;
  const code = known?.code ?? 'INTERNAL_ERROR';
  const field = error instanceof ApiError ? error.details.field : undefined;
  return jsonResult(status, {
    status: false,
    code: status,
    title: titleFor(status),
    data: {},
    msg: known?.message ?? 'Something went wrong on our side; the request was not completed',
    error: field === undefined ? { code } : { code, field },
  });
}
