import type { DataOf, ENDPOINTS, EndpointName } from '@service/shared';
import type { input, ZodType } from 'zod';

/** One REST endpoint as the dashboard calls it, keyed by its path (`agents/list`). */
export interface Endpoint {
  method: 'GET' | 'POST';
  query: unknown;
  body: unknown;
  data: unknown;
}

/** Every endpoint of the shared contract (`ENDPOINTS`), by path: types only, nothing of zod reaches the bundle. */
type Shared = {
  [N in EndpointName as (typeof ENDPOINTS)[N]['path']]: {
    method: (typeof ENDPOINTS)[N]['method'];
    query: InputOf<N, 'query'>;
    body: InputOf<N, 'body'>;
    data: DataOf<N>;
  };
};
/** What the caller sends (zod input: defaults may be left out). */
type InputOf<N extends EndpointName, K extends 'query' | 'body'> = (typeof ENDPOINTS)[N] extends { [key in K]: infer S extends ZodType } ? input<S> : undefined;

export type Api = Shared;
export type Path = keyof Api & string;
export type GetPath = { [P in Path]: Api[P]['method'] extends 'GET' ? P : never }[Path];
export type PostPath = { [P in Path]: Api[P]['method'] extends 'POST' ? P : never }[Path];
export type DataAt<P extends Path> = Api[P]['data'];
export type QueryAt<P extends Path> = Api[P]['query'];
export type BodyAt<P extends Path> = Api[P]['body'];
