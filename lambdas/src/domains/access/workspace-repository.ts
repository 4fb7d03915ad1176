import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { scanAll } from '../../infra/store/dynamo';
import type { Deps } from '../../infra/deps';
import { putIf, updateIf } from '../../infra/store/dynamo';

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
  /** Days after their last activity that conversations are kept (visitors/retention_set); absent: kept. */
  retentionDays?: number;
  /** When the retention was last set: the retention sweeper visits only workspaces that ever set one. */
  retentionSetAt?: string;
  /** Days audit entries are kept (the audit log's retention); absent: a year. */
  auditRetentionDays?: number;
  /** Whether widget visitors may still prove themselves with the never-expiring HMAC user hash; absent (workspaces older than signed tokens): yes. */
  userHashAllowed?: boolean;
}

export async function getWorkspaceItem(deps: Deps, id: string): Promise<Workspace | undefined> {
  const result = await deps.store.doc.send(new GetCommand({ TableName: deps.store.table('workspaces'), Key: { id } }));
  return result.Item as Workspace | undefined;
}

/** Stores the workspace unless one exists under its id. */
export async function putWorkspaceIfAbsent(deps: Deps, workspace: Workspace): Promise<void> {
  await putIf(deps.store, deps.store.table('workspaces'), workspace, { ConditionExpression: 'attribute_not_exists(id)' });
}

/** Sets (days) or clears (null: keep) the workspace's retention; false when there is no such workspace. */
export async function setRetentionDays(deps: Deps, id: string, days: number | null, at: string): Promise<boolean> {
  const set = await updateIf(
    deps.store,
    deps.store.table('workspaces'),
    { id },
    {
      UpdateExpression: days === null ? 'SET retentionSetAt = :at REMOVE retentionDays' : 'SET retentionDays = :days, retentionSetAt = :at',
      ConditionExpression: 'attribute_exists(id)',
      ExpressionAttributeValues: { ':at': at, ...(days === null ? {} : { ':days': days }) },
    },
  );
  return set !== undefined;
}

/** Sets one attribute of an existing workspace; false when the workspace is gone. */
async function setWorkspaceAttribute(deps: Deps, id: string, name: 'auditRetentionDays' | 'userHashAllowed', value: number | boolean): Promise<boolean> {
  const set = await updateIf(
    deps.store,
    deps.store.table('workspaces'),
    { id },
    { UpdateExpression: `SET ${name} = :value`, ConditionExpression: 'attribute_exists(id)', ExpressionAttributeValues: { ':value': value } },
  );
  return set !== undefined;
}

/** Sets how many days audit entries recorded from now on are kept; false when the workspace is gone. */
export const setAuditRetentionDays = (deps: Deps, id: string, days: number): Promise<boolean> => setWorkspaceAttribute(deps, id, 'auditRetentionDays', days);

/** Allows or refuses the widget's older user hash; false when the workspace is gone. */
export const setUserHashAllowed = (deps: Deps, id: string, allowed: boolean): Promise<boolean> => setWorkspaceAttribute(deps, id, 'userHashAllowed', allowed);

/** The workspaces that ever set a retention (the sweeper's round); a workspaces table is small, so a filtered scan. */
export const scanWorkspacesWithRetention = (deps: Deps): Promise<Workspace[]> =>
  scanAll<Workspace>(deps.store, { TableName: deps.store.table('workspaces'), FilterExpression: 'attribute_exists(retentionSetAt)' });
