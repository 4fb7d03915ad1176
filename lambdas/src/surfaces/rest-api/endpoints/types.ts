import type { BodyOf, DataOf, EndpointName, QueryOf } from '@service/shared';
import type { Deps } from '../../../infra/deps';
import type { StoredApiKey } from '../../../domains/access/api-keys';
import type { Action } from '../../../infra/store/idempotency';
import type { Workspace } from '../../../domains/access/workspaces';
import type { ActiveSession } from '../../../domains/people/sessions';

/** The caller's whereabouts: the client address (rate limits), the origin the browser used (links, passkeys), cookie security. */
export interface Client {
  ip: string;
  origin: string;
  /** Cookies go with Secure everywhere but on a loopback host. */
  secureCookies: boolean;
  /** The raw Cookie header (signing out needs the session it names). */
  cookieHeader?: string;
  /** The User-Agent header, for the audit log. */
  userAgent?: string;
}

export interface EndpointInput<N extends EndpointName> {
  deps: Deps;
  workspace: Workspace;
  /** The key the request came with; absent when an operator calls the endpoint through the operator API. */
  apiKey?: StoredApiKey;
  lang: string;
  body: BodyOf<N>;
  query: QueryOf<N>;
  /** A create names what it writes after this, so that a retry after a crash finds it instead of writing again. */
  action: Action;
  /** The month's token use, when the authentication already read it (token-gated endpoints). */
  tokensUsed?: Promise<number>;
  /** The signed-in person, when the request came with a session instead of an API key. */
  session?: ActiveSession;
  /** The caller's role in the workspace (`admin` for an API key). */
  role?: string;
  client?: Client;
}

/** `cookies`: Set-Cookie values the answer carries (signing in and out). */
export type EndpointHandler<N extends EndpointName> = (input: EndpointInput<N>) => Promise<{ data: DataOf<N>; msg?: string; cookies?: string[] }>;
export type EndpointHandlers<N extends EndpointName> = { [K in N]: EndpointHandler<K> };
