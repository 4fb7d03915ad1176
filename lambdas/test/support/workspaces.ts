import { newUuid } from '@service/shared';
import type { Deps } from '../../src/infra/deps';
import { buildAgent, putAgent } from '../../src/domains/agents/agents';
import { createApiKey } from '../../src/domains/access/api-keys';
import { PLANS, putWorkspaceIfAbsent, type Plan } from '../../src/domains/access/workspaces';

/** A second company on the same platform, with one agent and one key (what the dashboard would create). */
export async function createWorkspace(deps: Deps, plan: Plan = 'partner', tokenLimit = PLANS[plan].tokenLimit) {
  const id = newUuid();
  await putWorkspaceIfAbsent(deps, { id, name: `Company ${id.slice(0, 4)}`, plan, tokenLimit, createdAt: new Date().toISOString() });
  const agent = buildAgent(deps, id, { preset: 'sales' });
  await putAgent(deps, agent);
  const { secret, key } = await createApiKey(deps, id, 'test key');
  return { workspaceId: id, agentId: agent.id, apiKey: secret, keyId: key.id };
}
