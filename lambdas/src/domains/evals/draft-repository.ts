import type { Deps } from '../../infra/deps';
import { deleteIf, putIf, readItem } from '../../infra/store/dynamo';

/** The evals domain's drafts: every store call of the `agentDrafts` table. */
export interface StoredDraft {
  agentId: string;
  workspaceId: string;
  /** The fields agents/draft_update took, merged over earlier updates (the API's names). */
  changes: Record<string, unknown>;
  updatedAt: string;
}

const table = (deps: Deps) => deps.store.table('agentDrafts');

export const readDraft = (deps: Deps, agentId: string): Promise<StoredDraft | undefined> => readItem<StoredDraft>(deps.store, table(deps), { agentId });

/** Writes the draft unless another workspace's is stored under the agent (it cannot be: agent ids are unique). */
export const writeDraft = (deps: Deps, draft: StoredDraft): Promise<boolean> =>
  putIf(deps.store, table(deps), draft, {
    ConditionExpression: 'attribute_not_exists(agentId) OR workspaceId = :w',
    ExpressionAttributeValues: { ':w': draft.workspaceId },
  });

/** Removes the draft as it was read (`updatedAt`): a draft changed meanwhile stays. */
export const deleteDraftAsRead = (deps: Deps, draft: StoredDraft): Promise<StoredDraft | undefined> =>
  deleteIf<StoredDraft>(
    deps.store,
    table(deps),
    { agentId: draft.agentId },
    { ConditionExpression: 'updatedAt = :u', ExpressionAttributeValues: { ':u': draft.updatedAt } },
  );
