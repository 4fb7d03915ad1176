import type { Plan } from './workspace-repository';

/**
 * The access domain: workspaces (plan, retention setting), API keys and their admission, credential-failure delays and
 * rate limits. A workspace is the tenant every other domain's data belongs to.
 */
export type { Plan, Workspace } from './workspace-repository';
export {
  getWorkspaceItem as getWorkspace,
  putWorkspaceIfAbsent,
  setAuditRetentionDays,
  setRetentionDays,
  setUserHashAllowed,
  scanWorkspacesWithRetention,
} from './workspace-repository';

/** Plans and what they include; only the partner program reaches the REST API (spec: "partner program members only"). */
export const PLANS: Record<Plan, { apiAccess: boolean; tokenLimit: number }> = {
  partner: { apiAccess: true, tokenLimit: 5_000_000 },
  starter: { apiAccess: false, tokenLimit: 100_000 },
};
