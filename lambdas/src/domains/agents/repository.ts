import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { Deps } from '../../infra/deps';
import { createOrFind, putIf, readItem, updateIf } from '../../infra/store/dynamo';

/** The agents domain's repository: every store call of the `agents` table; a failed condition comes back as a value. */
export interface StoredAgent {
  workspaceId: string;
  id: string;
  name: string;
  role: string;
  preset: string;
  persona: string;
  /** The agent's own sending address (the e-mail skill sends from it). */
  email: string;
  locale: string;
  avatarUrl: string;
  skills: string[];
  branding: { companyName: string; primaryColor: string; gradientFrom: string; gradientTo: string };
  widget: { showDelay: number; teaserDelay: number; idleNudgeDelay: number; teaserHighlightWord: string };
  /** Origins allowed to embed the widget; `http://localhost:*` style wildcards are allowed for ports. */
  allowedOrigins: string[];
  /** Lets the widget chat answer requests without an `Origin` header (a server calling it); off unless set. */
  widgetServerSide?: boolean;
  /** Whether the agent may pass a conversation to people (absent: it may). */
  handoffEnabled?: boolean;
  /** A visitor's message with one of these (any case) goes to people without the agent. */
  handoffKeywords?: string[];
  /** How the agent answers inbound e-mail: `auto` sends its answer, `draft` leaves it for a teammate (default auto). */
  emailAnswers?: 'auto' | 'draft';
  /** Widget messages a minute to this agent from all visitors (absent: WIDGET_AGENT_RATE's default). */
  widgetRatePerMinute?: number;
  /** The company's JWKS for RS256/ES256 visitor tokens (null or absent: HS256 with the identity secret only). */
  identityJwksUrl?: string | null;
  createdAt: string;
}

const table = (deps: Deps) => deps.store.table('agents');

/** Stores the agent, or answers the one stored under its id (a retried hire). */
export const createAgentOrFind = async (deps: Deps, agent: StoredAgent): Promise<StoredAgent> =>
  (await createOrFind(deps.store, 'agents', agent, { workspaceId: agent.workspaceId, id: agent.id })).item;

/** Stores a new agent; false when its id is taken. */
export const putNewAgent = async (deps: Deps, agent: StoredAgent): Promise<boolean> =>
  putIf(deps.store, table(deps), agent, { ConditionExpression: 'attribute_not_exists(id)' });

export async function queryAgents(deps: Deps, workspaceId: string): Promise<StoredAgent[]> {
  const result = await deps.store.doc.send(
    new QueryCommand({ TableName: table(deps), KeyConditionExpression: 'workspaceId = :w', ExpressionAttributeValues: { ':w': workspaceId } }),
  );
  return (result.Items ?? []) as StoredAgent[];
}

export async function getAgentItem<T extends StoredAgent = StoredAgent>(deps: Deps, workspaceId: string, agentId: string): Promise<T | undefined> {
  const result = await deps.store.doc.send(new GetCommand({ TableName: table(deps), Key: { workspaceId, id: agentId } }));
  return result.Item as T | undefined;
}

/** By its public UUID alone (the `byId` index). */
export async function findAgentItemById(deps: Deps, agentId: string): Promise<StoredAgent | undefined> {
  const result = await deps.store.doc.send(
    new QueryCommand({ TableName: table(deps), IndexName: 'byId', KeyConditionExpression: 'id = :id', ExpressionAttributeValues: { ':id': agentId } }),
  );
  return result.Items?.[0] as StoredAgent | undefined;
}

/** By its own e-mail address (the `byEmail` index: inbound mail finds the agent it is addressed to). */
export async function findAgentItemByEmail(deps: Deps, email: string): Promise<StoredAgent | undefined> {
  const result = await deps.store.doc.send(
    new QueryCommand({
      TableName: table(deps),
      IndexName: 'byEmail',
      KeyConditionExpression: 'email = :email',
      ExpressionAttributeValues: { ':email': email },
    }),
  );
  return result.Items?.[0] as StoredAgent | undefined;
}

/** Sets fields of an existing agent; false when there is no such agent. */
export async function setAgentFields(deps: Deps, workspaceId: string, agentId: string, fields: Record<string, unknown>): Promise<boolean> {
  const names = Object.keys(fields);
  const updated = await updateIf(
    deps.store,
    table(deps),
    { workspaceId, id: agentId },
    {
      UpdateExpression: `SET ${names.map((_, index) => `#f${index} = :v${index}`).join(', ')}`,
      ConditionExpression: 'attribute_exists(id)',
      ExpressionAttributeNames: Object.fromEntries(names.map((name, index) => [`#f${index}`, name])),
      ExpressionAttributeValues: Object.fromEntries(names.map((name, index) => [`:v${index}`, fields[name]])),
    },
  );
  return updated !== undefined;
}

/**
 * Sets values at (possibly nested) paths of an existing agent in one conditional update: the agent as it now is;
 * undefined when there is no such agent. No path at all reads the agent as it is (an update must set something, and
 * the key attributes cannot be set).
 */
export async function updateAgentPaths(
  deps: Deps,
  workspaceId: string,
  agentId: string,
  updates: [path: string[], value: unknown][],
): Promise<StoredAgent | undefined> {
  if (!updates.length) return readItem<StoredAgent>(deps.store, table(deps), { workspaceId, id: agentId });
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  const assignments = updates.map(([path, value], index) => {
    const placeholders = path.map((part) => {
      names[`#${part}`] = part;
      return `#${part}`;
    });
    values[`:v${index}`] = value;
    return `${placeholders.join('.')} = :v${index}`;
  });
  return updateIf<StoredAgent>(
    deps.store,
    table(deps),
    { workspaceId, id: agentId },
    {
      UpdateExpression: `SET ${assignments.join(', ')}`,
      ConditionExpression: 'attribute_exists(#id)',
      ExpressionAttributeNames: { ...names, '#id': 'id' },
      ExpressionAttributeValues: values,
    },
  );
}
