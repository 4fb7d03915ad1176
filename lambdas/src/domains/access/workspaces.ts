import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { Deps } from '../../infra/deps';
import { ifConditionHolds } from '../../infra/store/dynamo';

export type Plan = 'partner' | 'starter';

export interface Workspace {
  id: string;
  name: string;
  plan: Plan;
  /** Monthly token allowance of the plan. */
  tokenLimit: number;
  createdAt: string;
}

/** Plans and what they include; only the partner program reaches the REST API (spec: "partner program members only"). */
export const PLANS: Record<Plan, { apiAccess: boolean; tokenLimit: number }> = {
  partner: { apiAccess: true, tokenLimit: 5_000_000 },
  starter: { apiAccess: false, tokenLimit: 100_000 },
};

export async function getWorkspace(deps: Deps, id: string): Promise<Workspace | undefined> {
  const result = await deps.store.doc.send(new GetCommand({ TableName: deps.store.table('workspaces'), Key: { id } }));
  return result.Item as Workspace | undefined;
}

/** Creates the workspace unless it exists (seeding is idempotent). */
export async function putWorkspaceIfAbsent(deps: Deps, workspace: Workspace): Promise<void> {
  await ifConditionHolds(deps.store.doc.send(new PutCommand({ TableName: deps.store.table('workspaces'), Item: workspace, ConditionExpression: 'attribute_not_exists(id)' })));
}
