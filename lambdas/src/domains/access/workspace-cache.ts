import type { Deps } from '../../infra/deps';
import { cached } from '../../infra/cache/short-cache';
import { getWorkspace, type Workspace } from './workspaces';

/** Every API request needs the workspace's plan; it changes rarely (an upgrade), so it is kept 30 s per container. */
export const getWorkspaceCached = (deps: Deps, id: string): Promise<Workspace | undefined> =>
  cached(deps, `workspace:${id}`, 30_000, () => getWorkspace(deps, id));
