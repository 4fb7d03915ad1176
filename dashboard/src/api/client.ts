import type { BodyAt, DataAt, GetPath, PostPath, QueryAt } from './types';

/** A failed call: the envelope's status, error code, field and message. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly field?: string,
  ) {
    super(message);
  }
}

interface Envelope<T> {
  status: boolean;
  code: number;
  data: T;
  msg: string;
  error?: { code: string; field?: string };
}

const state = { csrfToken: '', workspaceId: '', onUnauthorized: (): void => undefined };

/** What every later call carries: the session's CSRF token and the workspace picked in the switcher. */
export function configureClient(options: Partial<typeof state>): void {
  Object.assign(state, options);
}

const API_BASE = '/en/api/v1/';

/** The address of an endpoint with its query. */
export function apiUrl(path: string, query?: object): URL {
  const url = new URL(API_BASE + path, location.origin);
  for (const [name, value] of Object.entries(query ?? {})) if (value !== undefined && value !== null) url.searchParams.set(name, String(value));
  return url;
}

/** The headers of every call: what it accepts, and the workspace picked in the switcher. */
export function apiHeaders(accept: string): Record<string, string> {
  return { accept, ...(state.workspaceId ? { 'X-Workspace-Id': state.workspaceId } : {}) };
}

async function send<T>(method: 'GET' | 'POST', path: string, query: object | undefined, body: unknown): Promise<T> {
  const url = apiUrl(path, query);
  const headers = apiHeaders('application/json');
  if (method === 'POST') {
    headers['content-type'] = 'application/json';
    if (state.csrfToken) headers['X-CSRF-Token'] = state.csrfToken;
  }
  const response = await fetch(url, {
    method,
    headers,
    credentials: 'same-origin',
    ...(method === 'POST' ? { body: JSON.stringify(body ?? {}) } : {}),
  });
  let envelope: Envelope<T> | undefined;
  try {
    envelope = (await response.json()) as Envelope<T>;
  } catch {
    envelope = undefined;
  }
  if (!response.ok || !envelope?.status) {
    if (response.status === 401 && !path.startsWith('auth/')) state.onUnauthorized();
    throw new ApiError(
      response.status,
      envelope?.error?.code ?? 'HTTP_ERROR',
      envelope?.msg ?? `${response.status} ${response.statusText}`,
      envelope?.error?.field,
    );
  }
  return envelope.data;
}

/** A GET endpoint of the REST API, typed by its path; query values become search parameters. */
export const get = <P extends GetPath>(path: P, ...query: QueryAt<P> extends undefined ? [] : [QueryAt<P>]): Promise<DataAt<P>> =>
  send('GET', path, query[0] as object | undefined, undefined);

/** A POST endpoint of the REST API, typed by its path. */
export const post = <P extends PostPath>(path: P, ...body: BodyAt<P> extends undefined ? [] : [BodyAt<P>]): Promise<DataAt<P>> =>
  send('POST', path, undefined, body[0]);
