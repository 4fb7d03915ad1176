import type { Plan } from './api-key-repository';

export type { Plan, Workspace } from './api-key-repository';
export { getWorkspaceItem as getWorkspace, putWorkspaceIfAbsent } from './api-key-repository';

/** Plans and what they include; only the partner program reaches the REST API (spec: "partner program members only"). */
export const PLANS: Record<Plan, { apiAccess: boolean; tokenLimit: number }> = {
  partner: { apiAccess: true, tokenLimit: 5_000_000 },
  starter: { apiAccess: false, tokenLimit: 100_000 },
};
