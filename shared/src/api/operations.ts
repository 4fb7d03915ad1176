import type { EndpointContract } from './contract';
import type { ENDPOINTS } from './endpoints';

type ResourceOf<P> = P extends `${infer R}/${string}` ? R : never;
type Resource = ResourceOf<(typeof ENDPOINTS)[keyof typeof ENDPOINTS]['path']>;

/** One OpenAPI tag per resource (the first segment of a path), with what it holds; every resource has one. */
export const RESOURCE_TAGS = {
  agents: 'Agents of the workspace: hire from a preset, change settings, give commands and follow their runs',
  skills: 'The skill catalog, installing skills on agents, registering MCP servers as skills and their event deliveries',
  roles: 'Built-in and company-defined roles that skill capabilities are granted to',
  grants: 'Capabilities (skill actions) granted to roles',
  contacts: 'Contacts of the workspace',
  calendar: 'Calendar events of the workspace',
  tasks: 'Tasks of the workspace',
  email: 'E-mail the agents sent from their own addresses',
  usage: 'Token usage per day and per agent',
  billing: 'Plan, monthly token allowance and use',
  webhooks: 'Signed webhook subscriptions, their delivery log, redelivery and test events',
  connections: 'MCP connections of assistants to the workspace and their tool calls',
  keys: 'API keys of the workspace',
  auth: 'Dashboard sign-in (e-mail code, passkeys), the session and the profile',
  members: 'Members of the workspace and their invitations',
  invitations: 'Accepting an invitation to a workspace',
  conversations: 'Widget conversations of an agent and their transcripts',
  visitors: "A visitor's data: export, erasure (with its audit record) and how long conversations are kept",
  knowledge: "The company's knowledge the agents answer from: website, file and answer sources, their documents, and search",
  evals: 'Scenarios an agent is tested against, eval runs of the suite on the live agent or its draft, their results and the diff',
  insights: 'How an agent does, per day: resolutions, handoffs, knowledge gaps, ratings, tool failures, cost, response times',
  audit: "The workspace's audit log: changes to configuration and access, and bulk reads of visitors' data",
  telemetry: 'Where OpenTelemetry traces of runs and widget replies are exported (OTLP/HTTP)',
} as const satisfies Record<Resource, string>;

export type ResourceTag = keyof typeof RESOURCE_TAGS;

/** The resource of an endpoint: the first segment of its path (`agents` for `agents/command_status`). */
export const resourceOf = (endpoint: Pick<EndpointContract, 'path'>): ResourceTag => endpoint.path.slice(0, endpoint.path.indexOf('/')) as ResourceTag;

/**
 * The stable operationId of an endpoint, `<resource>_<action>` from its path (`agents/command_status` →
 * `agents_command_status`): unique as paths are, and independent of the language segment of the base URL.
 */
export const operationIdOf = (endpoint: Pick<EndpointContract, 'path'>): string => endpoint.path.replaceAll('/', '_');
