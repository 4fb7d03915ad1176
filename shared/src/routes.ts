/**
 * Every HTTP route of the platform, in API Gateway's path syntax (`{name}` one segment, `{name+}` the rest), by the
 * function that serves it. The CDK stack declares exactly these routes; the local server dispatches with them.
 * API Gateway picks the most specific route; the local server tries functions in the order of its own list.
 */
export const ROUTES = {
  /** The REST API (spec 2). */
  restApi: '/{lang}/api/v1/{proxy+}',
  /** serviceApi calls of skills, turn token only (spec 3). */
  skillCallbacks: '/{lang}/api/v1/skills/{code}/{proxy+}',
  /** The REST endpoints that read widget conversations (the dashboard's Conversations screen): a function of their own. */
  conversationsApi: '/{lang}/api/v1/conversations/{proxy+}',
  /** A visitor's data (visitors/*: export, erase, audit, retention): served with conversations/* by the function that reads them. */
  visitorsApi: '/{lang}/api/v1/visitors/{proxy+}',
  /** Eval scenarios and runs (evals/*): served with conversations/* (a scenario is saved from a conversation). */
  evalsApi: '/{lang}/api/v1/evals/{proxy+}',
  /** Sign-in codes, sessions and passkeys (auth/*): a function of their own, the only one carrying the WebAuthn verifier. */
  authApi: '/{lang}/api/v1/auth/{proxy+}',
  /** Operators' provisioning and administration, master key only. */
  operatorApi: '/{lang}/api/v1/admin/{proxy+}',
  /** agents/command_stream: a run's events as SSE; a streaming Function URL of its own in AWS, on the dashboard's origin. */
  runStream: '/{lang}/api/v1/agents/command_stream',
  /**
   * The agent list of spec 1 (how a site owner finds the agent UUID of the embed line): an API key as Bearer, the bare
   * array of agent records, no CORS (a server-side call). Served by the Api function.
   */
  agentList: '/v1/agents',
  /** The widget's public configuration (spec 1). */
  widgetConfig: '/v1/agents/{agentId}/widget-config',
  /** A verified widget visitor's conversation, for any device. */
  widgetHistory: '/v1/agents/{agentId}/history',
  /** A widget visitor's live stream (people's messages, Server-Sent Events); the ConversationStream function in AWS. */
  widgetLive: '/v1/agents/{agentId}/live',
  /** A widget visitor's rating of an answer (thumbs up or down, a comment); served by the Chat function, the chat's sibling path. */
  widgetRating: '/v1/agents/{agentId}/rating',
  /** conversations/stream: a teammate's live stream of a conversation; the RunStream function in AWS. */
  conversationStream: '/{lang}/api/v1/conversations/stream',
  /** conversations/inbox_stream: a teammate's live stream of the workspace's inbox; the RunStream function in AWS. */
  inboxStream: '/{lang}/api/v1/conversations/inbox_stream',
  /** The widget's streamed conversation (spec 1); a Function URL of its own in AWS. */
  widgetChat: '/v1/agents/{agentId}/chat',
  /** The MCP server (streamable HTTP); a streaming Function URL of its own in AWS, which also serves the two below. */
  mcp: '/mcp',
  /** The run card's script and stylesheet (the MCP Apps UI of get_run and ask_agent), served by the MCP function. */
  mcpUi: '/mcp-ui/{file}',
  /** The OAuth authorization server: authorize (consent page), token, register, revoke. */
  oauth: '/oauth/{proxy+}',
  /** OAuth discovery: protected resource metadata (RFC 9728) and authorization server metadata (RFC 8414). */
  wellKnown: '/.well-known/{proxy+}',
} as const;

export type RouteName = keyof typeof ROUTES;
