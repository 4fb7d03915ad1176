import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { Deps } from '../../infra/deps';
import { putIf } from '../../infra/store/dynamo';

/**
 * The access domain's workspace repository: every store call of the `workspaces` table; a failed condition comes back
 * as a value (false), never as a catch block.
 */
export type Plan = 'partner' | 'starter';

export interface Workspace {
  id: string;
  name: string;
  plan: Plan;
  /** Monthly token allowance of the plan. */
  tokenLimit: number;
  createdAt: string;
}

export async function getWorkspaceItem(deps: Deps, id: string): Promise<Workspace | undefined> {
  const result = await deps.store.doc.send(new GetCommand({ TableName: deps.store.table('workspaces'), Key: { id } }));
  return result.Item as Workspace | undefined;
}

/** Stores the workspace unless one exists under its id. */
export async function putWorkspaceIfAbsent(deps: Deps, workspace: Workspace): Promise<void> {
  await putIf(deps.store, deps.store.table('workspaces'), workspace, { ConditionExpression: 'attribute_not_exists(id)' });
}
