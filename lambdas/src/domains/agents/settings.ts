import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { DomainError } from '@service/shared';
import type { Deps } from '../../infra/deps';
import { ifConditionHolds } from '../../infra/store/dynamo';
import type { StoredAgent } from './agents';

/** What the dashboard's Settings screen changes: the fields the widget configuration serves, and who may embed it. */
export interface AgentSettings {
  name?: string;
  role?: string;
  persona?: string;
  locale?: string;
  avatarUrl?: string;
  companyName?: string;
  primaryColor?: string;
  gradientFrom?: string;
  gradientTo?: string;
  showDelay?: number;
  teaserDelay?: number;
  idleNudgeDelay?: number;
  teaserHighlightWord?: string;
  allowedOrigins?: string[];
}

/** Where each setting lives in the stored agent (widget-config reads these). */
const PATHS: Record<keyof AgentSettings, string[]> = {
  name: ['name'],
  role: ['role'],
  persona: ['persona'],
  locale: ['locale'],
  avatarUrl: ['avatarUrl'],
  companyName: ['branding', 'companyName'],
  primaryColor: ['branding', 'primaryColor'],
  gradientFrom: ['branding', 'gradientFrom'],
  gradientTo: ['branding', 'gradientTo'],
  showDelay: ['widget', 'showDelay'],
  teaserDelay: ['widget', 'teaserDelay'],
  idleNudgeDelay: ['widget', 'idleNudgeDelay'],
  teaserHighlightWord: ['widget', 'teaserHighlightWord'],
  allowedOrigins: ['allowedOrigins'],
};

/** Changes the given settings of an agent of the workspace in one conditional update: the agent as it now is. */
export async function updateAgentSettings(deps: Deps, workspaceId: string, agentId: string, settings: AgentSettings): Promise<StoredAgent> {
  const entries = (Object.entries(settings) as [keyof AgentSettings, unknown][]).filter(([, value]) => value !== undefined);
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  const assignments = entries.map(([setting, value], index) => {
    const path = PATHS[setting].map((part) => {
      names[`#${part}`] = part;
      return `#${part}`;
    });
    values[`:v${index}`] = value;
    return `${path.join('.')} = :v${index}`;
  });
  const result = await ifConditionHolds(
    deps.store.doc.send(
      new UpdateCommand({
        TableName: deps.store.table('agents'),
        Key: { workspaceId, id: agentId },
        // Nothing to change still checks the agent exists (and answers it).
        UpdateExpression: assignments.length ? `SET ${assignments.join(', ')}` : 'SET #id = #id',
        ConditionExpression: 'attribute_exists(#id)',
        ExpressionAttributeNames: { ...names, '#id': 'id' },
        ...(assignments.length ? { ExpressionAttributeValues: values } : {}),
        ReturnValues: 'ALL_NEW',
      }),
    ),
  );
  if (!result?.Attributes) throw new DomainError('AGENT_NOT_FOUND', `No agent ${agentId} in this workspace`, { field: 'agent_id' });
  return result.Attributes as StoredAgent;
}
