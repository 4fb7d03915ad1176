/** The screens of one agent, by route name, with their labels: their address names the agent (`#/agents/<id>/runs`). */
export const AGENT_SCREENS = {
  settings: 'Settings',
  embed: 'Widget Embed',
  runs: 'Runs',
  conversations: 'Conversations',
  evals: 'Evals',
  insights: 'Insights',
} as const;
export type AgentScreen = keyof typeof AGENT_SCREENS;

export const isAgentScreen = (name: string | undefined): name is AgentScreen => name !== undefined && Object.hasOwn(AGENT_SCREENS, name);

/** An agent id as the API takes it (a UUID); anything else in an address names no agent. */
export const isAgentId = (value: string | undefined): value is string =>
  value !== undefined && /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value);
