import type { BodyOf, DataOf, EndpointName, QueryOf } from '@service/shared';
import type { Deps } from '../../../infra/deps';
import type { StoredApiKey } from '../../../domains/access/api-keys';
import type { Action } from '../../../infra/store/idempotency';
import type { Workspace } from '../../../domains/access/workspaces';

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
}

export type EndpointHandler<N extends EndpointName> = (input: EndpointInput<N>) => Promise<{ data: DataOf<N>; msg?: string }>;
export type EndpointHandlers<N extends EndpointName> = { [K in N]: EndpointHandler<K> };
