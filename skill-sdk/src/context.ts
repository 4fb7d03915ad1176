import type { Translate } from './translate.js';
import { uuidOrUndefined } from './uuid.js';

/** Performs a platform API call for serviceApi; real contexts call over HTTP, mock contexts record and answer. */
export type ApiCaller = (method: string, params: Record<string, unknown>) => Promise<unknown>;
export const API_CALLER = Symbol('skill-sdk.apiCaller');

/** What a handler knows about the call. Everything here comes from the platform, never from tool arguments. */
export interface SkillContext {
  /** Code of the skill being called. */
  readonly skill: string;
  /** Normalized conversation language (BCP 47, e.g. `tr`, `pt-BR`). */
  readonly language: string;
  readonly t: Translate;
  /** The turn token for serviceApi. Not enumerable, so logging or serializing ctx leaves it out; never log it. */
  readonly turnToken: string | undefined;
  readonly accountId: string | undefined;
  readonly companyId: string | undefined;
  readonly userId: string | undefined;
  /** The caller's roles, e.g. ['member']. */
  readonly roles: readonly string[];
  /** Capabilities the platform granted the caller (`code.action`); undefined when it gave no grant. */
  readonly capabilities: readonly string[] | undefined;
  /** Aborted when the tool times out or the caller goes away. */
  readonly signal: AbortSignal;
  readonly [API_CALLER]: ApiCaller;
}

export interface ContextInput {
  skill: string;
  language: string;
  t: Translate;
  turnToken?: string;
  accountId?: string;
  companyId?: string;
  userId?: string;
  roles?: readonly string[];
  capabilities?: readonly string[];
  signal: AbortSignal;
  apiCaller: ApiCaller;
}

/** `extra` adds members (the mock context's apiCalls). */
export function createContext<E extends object = object>(input: ContextInput, extra?: E): SkillContext & E {
  const ctx = {
    ...extra,
    skill: input.skill,
    language: input.language,
    t: input.t,
    accountId: uuidOrUndefined(input.accountId),
    companyId: uuidOrUndefined(input.companyId),
    userId: uuidOrUndefined(input.userId),
    roles: Object.freeze([...(input.roles ?? [])]),
    capabilities: input.capabilities && Object.freeze([...input.capabilities]),
    signal: input.signal,
    [API_CALLER]: input.apiCaller,
  };
  Object.defineProperty(ctx, 'turnToken', { value: input.turnToken, enumerable: false });
  return Object.freeze(ctx) as unknown as SkillContext & E;
}
