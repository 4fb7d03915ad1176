/**
 * Every error code of the API with its HTTP status. `error.code` is the stable contract; `msg` may change.
 * The spec leaves the statuses of the business gates open; we chose:
 * - TOKEN_LIMIT_REACHED 402: the plan's token allowance is used up (payment or an upgrade resolves it);
 * - PLAN_REQUIRED 403: the workspace is not on a plan that includes the API;
 * - SKILL_OAUTH_REQUIRED 409: the skill needs an OAuth connection the company has not made yet.
 * The skill-facing routes (serviceApi) add TURN_TOKEN_* and MASTER_KEY_* (401) and FORBIDDEN (403: the turn's role lacks the capability).
 * ORIGIN_NOT_ALLOWED 403 is ours too: the widget chat was called from a page origin the agent does not allow.
 * People (the dashboard): CODE_INVALID 400 (wrong sign-in code), CODE_EXPIRED 400 (expired, used, or out of tries:
 * ask for a new one), LAST_OWNER 409 (the last owner cannot be removed or demoted), FORBIDDEN 403 (the role may not).
 * RUN_NOT_CANCELLABLE 409: agents/command_cancel on a run that already completed or failed.
 * APPROVAL_NOT_PENDING 409: approving or rejecting a run that waits for no approval (or was answered already);
 * APPROVAL_EXPIRED 409: its approval expired (the run ended `cancelled`).
 * CONVERSATION_NOT_FOUND 404: no such widget conversation in the workspace; CONVERSATION_CLOSED 409: it was closed
 * (nobody replies to it, assigns or hands it back any more); CONVERSATION_ERASED 410: the visitor's data was erased
 * (visitors/erase or the retention setting): nobody writes to it any more, and a new conversation starts afresh.
 * EVAL_SUITE_EMPTY 409: evals/run for an agent without scenarios; EVAL_SUITE_NOT_PASSED 409: agents/draft_publish with
 * require_suite_pass while the latest eval run of the draft did not pass (or there is none, or it is still running).
 * DRAFT_NOT_FOUND 404: agents/draft_get or _publish for an agent without a draft.
 * VISITOR_TOKEN_INVALID 401: a widget visitor's signed token (or a user hash where the workspace turned those off) was
 * refused: forged, expired, wrongly signed, `alg: none`, `exp` over 24 h away. The widget request still answers, as an
 * anonymous visitor; the code comes in its `x-visitor-identity-error` header (docs/widget.md, Verified visitors).
 */
export const ERROR_STATUS = {
  VALIDATION_ERROR: 400,
  SCHEMA_INVALID: 400,
  CODE_INVALID: 400,
  CODE_EXPIRED: 400,
  API_KEY_REQUIRED: 401,
  API_KEY_INVALID: 401,
  TURN_TOKEN_REQUIRED: 401,
  TURN_TOKEN_INVALID: 401,
  TURN_TOKEN_EXPIRED: 401,
  VISITOR_TOKEN_INVALID: 401,
  MASTER_KEY_REQUIRED: 401,
  MASTER_KEY_INVALID: 401,
  TOKEN_LIMIT_REACHED: 402,
  PLAN_REQUIRED: 403,
  FORBIDDEN: 403,
  ORIGIN_NOT_ALLOWED: 403,
  AGENT_NOT_FOUND: 404,
  RUN_NOT_FOUND: 404,
  NOT_FOUND: 404,
  CONVERSATION_NOT_FOUND: 404,
  DRAFT_NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  IDEMPOTENCY_CONFLICT: 409,
  SKILL_OAUTH_REQUIRED: 409,
  LAST_OWNER: 409,
  RUN_NOT_CANCELLABLE: 409,
  APPROVAL_NOT_PENDING: 409,
  APPROVAL_EXPIRED: 409,
  CONVERSATION_CLOSED: 409,
  EVAL_SUITE_EMPTY: 409,
  EVAL_SUITE_NOT_PASSED: 409,
  CONVERSATION_ERASED: 410,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  RATE_LIMITED: 429,
  INTERNAL_ERROR: 500,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;
export const ERROR_CODES = Object.keys(ERROR_STATUS) as ErrorCode[];

/** A failure the caller caused or must know about; the API turns it into the envelope with its status. */
export class ApiError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details: { field?: string; headers?: Record<string, string> } = {},
  ) {
    super(message);
    this.name = 'ApiError';
    this.status = ERROR_STATUS[code];
  }
}
