import type { EVAL_DOORS, Expectation } from '@service/shared';
import type { Deps } from '../../infra/deps';
import { deleteIf, putIf, queryAll, readItem } from '../../infra/store/dynamo';

/** The evals domain's scenarios: every store call of the `evalScenarios` table; a failed condition comes back as a value. */
export interface StoredScenario {
  agentId: string;
  id: string;
  workspaceId: string;
  name: string;
  door: (typeof EVAL_DOORS)[number];
  page?: string;
  locale?: string;
  identity?: { user_id: string; data?: Record<string, unknown> };
  turns: { user: string; expect: Expectation[] }[];
  createdAt: string;
  updatedAt: string;
}

const table = (deps: Deps) => deps.store.table('evalScenarios');

/** Stores a new scenario; false when its id is taken (a retried create: the caller reads the one stored). */
export const putNewScenario = (deps: Deps, scenario: StoredScenario): Promise<boolean> =>
  putIf(deps.store, table(deps), scenario, { ConditionExpression: 'attribute_not_exists(id)' });

/** Replaces a scenario of the workspace; false when there is none (or it is another workspace's, or another agent's). */
export const replaceScenario = (deps: Deps, scenario: StoredScenario): Promise<boolean> =>
  putIf(deps.store, table(deps), scenario, {
    ConditionExpression: 'workspaceId = :w AND agentId = :a',
    ExpressionAttributeValues: { ':w': scenario.workspaceId, ':a': scenario.agentId },
  });

export const readScenario = (deps: Deps, id: string): Promise<StoredScenario | undefined> => readItem<StoredScenario>(deps.store, table(deps), { id });

/** Every scenario of an agent (its suite), in id order. */
export const queryScenarios = (deps: Deps, agentId: string): Promise<StoredScenario[]> =>
  queryAll<StoredScenario>(deps.store, {
    TableName: table(deps),
    IndexName: 'byAgent',
    KeyConditionExpression: 'agentId = :a',
    ExpressionAttributeValues: { ':a': agentId },
  });

/** Deletes a scenario of the workspace: the one deleted, or undefined. */
export const deleteScenarioItem = (deps: Deps, workspaceId: string, id: string): Promise<StoredScenario | undefined> =>
  deleteIf<StoredScenario>(deps.store, table(deps), { id }, { ConditionExpression: 'workspaceId = :w', ExpressionAttributeValues: { ':w': workspaceId } });
