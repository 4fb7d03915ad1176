import type { Deps } from '../../infra/deps';
import { buildAgent, findAgent, putAgent, setAgentSkills } from '../../domains/agents/agents';
import { apiKeyExists, createApiKey, listApiKeys } from '../../domains/access/api-keys';
import { PLANS, putWorkspaceIfAbsent } from '../../domains/access/workspaces';
import { seedBuiltinGrants } from '../../domains/skills/seed-grants';
import { addMember } from '../../domains/people/members';
import { ensureUser } from '../../domains/people/users';

/** Fixed ids, so the demo page's embed tag and the examples of README.md and docs/ work on every machine. */
export const DEMO_WORKSPACE_ID = '5eed0000-0000-4000-8000-000000000001';
export const DEMO_AGENT_IDS = { support: '5eed0000-0000-4000-8000-0000000000a1', sales: '5eed0000-0000-4000-8000-0000000000a2' } as const;
const LOCALHOST_ORIGINS = ['http://localhost:*', 'http://127.0.0.1:*'];
/** The demo workspace's owner: `npm start` prints it; signing in mails a code to the local mailbox (GET /dev/mail.json). */
export const DEMO_OWNER_EMAIL = 'owner@demo.example';

export interface DemoSeed {
  workspaceId: string;
  agentIds: string[];
  ownerEmail: string;
  /** The demo key when this start created it (shown once); undefined when it already existed. */
  createdApiKey?: string;
}

/** Seeds, idempotently, the demo workspace on the partner plan, two agents hired from presets, built-in skill grants, and an API key. */
export async function seedDemo(deps: Deps, demoApiKey?: string): Promise<DemoSeed> {
  await putWorkspaceIfAbsent(deps, {
    id: DEMO_WORKSPACE_ID,
    name: 'Demo Company',
    plan: 'partner',
    tokenLimit: PLANS.partner.tokenLimit,
    createdAt: deps.now().toISOString(),
  });
  for (const [preset, id] of Object.entries(DEMO_AGENT_IDS)) {
    await putAgent(deps, buildAgent(deps, DEMO_WORKSPACE_ID, { preset, id, companyName: 'Demo Company', allowedOrigins: LOCALHOST_ORIGINS }), true);
    await installKnowledge(deps, id);
  }
  await seedBuiltinGrants(deps, DEMO_WORKSPACE_ID);
  await addMember(deps, { id: DEMO_WORKSPACE_ID, name: 'Demo Company' }, await ensureUser(deps, DEMO_OWNER_EMAIL), 'owner');
  const createdApiKey = await ensureDemoKey(deps, demoApiKey);
  return { workspaceId: DEMO_WORKSPACE_ID, agentIds: Object.values(DEMO_AGENT_IDS), ownerEmail: DEMO_OWNER_EMAIL, ...(createdApiKey ? { createdApiKey } : {}) };
}

/** The demo agents answer from the demo site's own content (issue 28); an agent of an earlier DATA_DIR gets the skill too. */
async function installKnowledge(deps: Deps, agentId: string): Promise<void> {
  const agent = await findAgent(deps, DEMO_WORKSPACE_ID, agentId);
  if (agent && !agent.skills.includes('knowledge')) await setAgentSkills(deps, agent, [...agent.skills, 'knowledge']);
}

async function ensureDemoKey(deps: Deps, demoApiKey?: string): Promise<string | undefined> {
  if (demoApiKey) {
    if (await apiKeyExists(deps, demoApiKey)) return undefined;
    return (await createApiKey(deps, DEMO_WORKSPACE_ID, 'Demo key (SERVICE_DEMO_API_KEY)', { secret: demoApiKey })).secret;
  }
  const live = (await listApiKeys(deps, DEMO_WORKSPACE_ID)).filter((key) => !key.revokedAt);
  if (live.length > 0) return undefined;
  return (await createApiKey(deps, DEMO_WORKSPACE_ID, 'Demo key')).secret;
}
