/**
 * DynamoDB tables as data: the CDK stack and the local bootstrap both create them from this list, so the two never drift.
 * Every write the platform makes is a single-item (conditional) write: dynalite has no transactions and no TTL,
 * and expiry is always checked in code; `ttlAttribute` only lets DynamoDB sweep old items in production.
 */
export type KeyType = 'S' | 'N';

export interface KeyDefinition {
  name: string;
  type: KeyType;
}

export interface IndexDefinition {
  name: string;
  partitionKey: KeyDefinition;
  sortKey?: KeyDefinition;
}

export interface TableDefinition {
  /** Logical name; the physical name is the deployment's prefix plus this. */
  name: string;
  partitionKey: KeyDefinition;
  sortKey?: KeyDefinition;
  indexes?: IndexDefinition[];
  ttlAttribute?: string;
  /** Only the local platform needs it (production uses SQS). */
  localOnly?: boolean;
}

const s = (name: string): KeyDefinition => ({ name, type: 'S' });

export const TABLES = {
  workspaces: { name: 'workspaces', partitionKey: s('id') },
  agents: {
    name: 'agents',
    partitionKey: s('workspaceId'),
    sortKey: s('id'),
    indexes: [
      { name: 'byId', partitionKey: s('id') },
      /** Inbound mail finds the agent it is addressed to by its own address (docs/email.md). */
      { name: 'byEmail', partitionKey: s('email') },
    ],
  },
  apiKeys: {
    name: 'api-keys',
    partitionKey: s('keyHash'),
    indexes: [{ name: 'byWorkspace', partitionKey: s('workspaceId'), sortKey: s('createdAt') }],
  },
  runs: {
    name: 'runs',
    partitionKey: s('runId'),
    indexes: [
      { name: 'byAgent', partitionKey: s('agentId'), sortKey: s('createdAt') },
      /** Sparse: only runs still `queued` or `running` carry `pendingStatus`, so the sweeper reads just those. */
      { name: 'pending', partitionKey: s('pendingStatus'), sortKey: s('createdAt') },
    ],
  },
  /** A run's steps (model turns, tool calls, status changes) by run and sequence, written a batch at a time by its runner. */
  runSteps: { name: 'run-steps', partitionKey: s('runId'), sortKey: { name: 'seq', type: 'N' } },
  idempotency: {
    name: 'idempotency',
    partitionKey: s('scopedKey'),
    ttlAttribute: 'expiresAtEpoch',
    /** A workspace's stored responses of the last day (kept 24 hours): what an erasure reads, not every tenant's. */
    indexes: [{ name: 'byWorkspace', partitionKey: s('workspaceId'), sortKey: s('actionAt') }],
  },
  rateLimits: { name: 'rate-limits', partitionKey: s('bucket'), ttlAttribute: 'expiresAtEpoch' },
  webhookSubscriptions: { name: 'webhook-subscriptions', partitionKey: s('workspaceId'), sortKey: s('id') },
  webhookDeliveries: {
    name: 'webhook-deliveries',
    partitionKey: s('subscriptionId'),
    sortKey: s('deliveryId'),
    ttlAttribute: 'expiresAtEpoch',
    /** Sparse: deliveries and attempts of a conversation's events carry `conversationId`, so an erasure or export reads just those. */
    indexes: [{ name: 'byConversation', partitionKey: s('conversationId'), sortKey: s('deliveryId') }],
  },
  conversations: {
    name: 'conversations',
    partitionKey: s('conversationId'),
    sortKey: s('sk'),
    ttlAttribute: 'expiresAtEpoch',
  },
  records: { name: 'records', partitionKey: s('workspaceId'), sortKey: s('sk') },
  usage: { name: 'usage', partitionKey: s('workspaceId'), sortKey: s('sk') },
  /** Installed and registered skills, roles, grants, and short-lived `turn#` records (swept by TTL, expiry checked in code). */
  skills: { name: 'skills', partitionKey: s('workspaceId'), sortKey: s('sk'), ttlAttribute: 'expiresAtEpoch' },
  /** MCP connections (OAuth grants): who approved which client for which workspace, scopes, agents, use counts. */
  connections: {
    name: 'connections',
    partitionKey: s('id'),
    indexes: [{ name: 'byWorkspace', partitionKey: s('workspaceId'), sortKey: s('createdAt') }],
  },
  /** OAuth secrets by SHA-256 hash: authorization codes, access and refresh tokens (expiry checked in code). */
  oauthTokens: { name: 'oauth-tokens', partitionKey: s('tokenHash'), ttlAttribute: 'expiresAtEpoch' },
  /** Clients registered by Dynamic Client Registration (RFC 7591). */
  oauthClients: { name: 'oauth-clients', partitionKey: s('clientId') },
  /** MCP keys (restricted workspace keys for headless agents, the bearer on /mcp) by SHA-256 hash of the key. */
  mcpKeys: {
    name: 'mcp-keys',
    partitionKey: s('keyHash'),
    indexes: [{ name: 'byWorkspace', partitionKey: s('workspaceId'), sortKey: s('createdAt') }],
  },
  /** Recent tool calls of each connection (the audit trail beside the runs' own source), newest by sort key. */
  connectionCalls: { name: 'connection-calls', partitionKey: s('connectionId'), sortKey: s('sk'), ttlAttribute: 'expiresAtEpoch' },
  localQueue: { name: 'local-queue', partitionKey: s('queue'), sortKey: s('sk'), localOnly: true },
  /** People: `usr_…` user items, and `email#<address>` items whose conditional put keeps an address to one user. */
  users: { name: 'users', partitionKey: s('id') },
  /** Who belongs to which workspace with which role. */
  memberships: {
    name: 'memberships',
    partitionKey: s('workspaceId'),
    sortKey: s('userId'),
    indexes: [{ name: 'byUser', partitionKey: s('userId'), sortKey: s('workspaceId') }],
  },
  /** Invitations by the hash of their link's token (expiry checked in code). */
  invitations: {
    name: 'invitations',
    partitionKey: s('tokenHash'),
    indexes: [
      { name: 'byWorkspace', partitionKey: s('workspaceId'), sortKey: s('createdAt') },
      { name: 'byEmail', partitionKey: s('email'), sortKey: s('createdAt') },
    ],
    ttlAttribute: 'expiresAtEpoch',
  },
  /** One-time sign-in secrets, hashed: the e-mailed code of an address (`email#…`), passkey challenges (`webauthn#…`). */
  signInCodes: { name: 'sign-in-codes', partitionKey: s('id'), ttlAttribute: 'expiresAtEpoch' },
  /** Dashboard sessions by the SHA-256 of the cookie value (idle and absolute expiry checked in code). */
  sessions: {
    name: 'sessions',
    partitionKey: s('sessionHash'),
    indexes: [{ name: 'byUser', partitionKey: s('userId'), sortKey: s('createdAt') }],
    ttlAttribute: 'expiresAtEpoch',
  },
  /** WebAuthn credentials by credential id. */
  passkeys: {
    name: 'passkeys',
    partitionKey: s('credentialId'),
    indexes: [{ name: 'byUser', partitionKey: s('userId'), sortKey: s('createdAt') }],
  },
  /**
   * Knowledge sources of a workspace (website, files, answers) with their status, counts and the sync under way; the
   * sparse `dueSync` index holds only sources with a schedule (`syncLane`), by when their next sync is due.
   */
  knowledgeSources: {
    name: 'knowledge-sources',
    partitionKey: s('workspaceId'),
    sortKey: s('id'),
    indexes: [{ name: 'dueSync', partitionKey: s('syncLane'), sortKey: s('nextSyncAt') }],
  },
  /** Documents of a source (a page by its URL's hash, a file, an answer): content hash, ETag/Last-Modified, blob keys, chunk count. */
  knowledgeDocuments: { name: 'knowledge-documents', partitionKey: s('sourceId'), sortKey: s('id') },
  /**
   * The crawl frontier of one sync of a website (`<source id>#<sync id>`), one item per page URL (its hash), put
   * conditionally so a URL is crawled once per sync; `pending` marks those not done yet.
   */
  knowledgeCrawl: { name: 'knowledge-crawl', partitionKey: s('syncKey'), sortKey: s('urlKey') },
  /**
   * Questions visitors asked that the knowledge could not answer, grouped by agent and normalised text (`id` = the
   * text's hash and the agent), with how often and when; no visitor's identity. Expire 90 days after the last ask.
   */
  knowledgeUnanswered: { name: 'knowledge-unanswered', partitionKey: s('workspaceId'), sortKey: s('id'), ttlAttribute: 'expiresAtEpoch' },
  /**
   * Erasures of visitors' data (visitors/erase and the retention sweeper), by workspace, newest first (`sk` =
   * `<started at>#<id>`): the audit record (who, when, the visitor's hash, what was removed). While one is unfinished it
   * carries its target and `unfinished` (a sparse index), so a retry or the sweeper finishes it after a crash.
   */
  visitorErasures: {
    name: 'visitor-erasures',
    partitionKey: s('workspaceId'),
    sortKey: s('sk'),
    indexes: [{ name: 'unfinished', partitionKey: s('unfinished'), sortKey: s('sk') }],
  },
  /**
   * Where a workspace's traces go (OTLP endpoint, its headers, whether contents are recorded) and the running counts of
   * spans delivered and dropped, added after each export.
   */
  telemetrySettings: { name: 'telemetry-settings', partitionKey: s('workspaceId') },
  /** Eval scenarios (evals/scenario_*), an agent's suite by the `byAgent` index; `workspaceId` on each item is checked on every read. */
  evalScenarios: { name: 'eval-scenarios', partitionKey: s('id'), indexes: [{ name: 'byAgent', partitionKey: s('agentId'), sortKey: s('id') }] },
  /**
   * Eval runs of an agent's suite (evals/run): status, counts, the previous run it is compared with. Unfinished ones
   * carry `pendingStatus` (a sparse index) so that a retry or the sweeper finishes them after a crash.
   */
  evalRuns: {
    name: 'eval-runs',
    partitionKey: s('evalRunId'),
    indexes: [
      { name: 'byAgent', partitionKey: s('agentId'), sortKey: s('createdAt') },
      { name: 'pending', partitionKey: s('pendingStatus'), sortKey: s('createdAt') },
    ],
  },
  /** One scenario's result in an eval run (its expectations and transcript), written once the scenario was played. */
  evalResults: { name: 'eval-results', partitionKey: s('evalRunId'), sortKey: s('scenarioId') },
  /** An agent's draft (agents/draft_update): the changed settings, skills and knowledge sources, until published. */
  agentDrafts: { name: 'agent-drafts', partitionKey: s('agentId') },
  /**
   * Insights (docs/insights.md): one facts item per conversation (`conv#<id>`) and per run (`run#<id>`) of an agent,
   * each event written into it idempotently (SET by the event's own id, never ADD); `byDay` reads an agent's items of a
   * range of days (`daySk` = `<YYYY-MM-DD>#<sk>`, the day it started).
   */
  insights: {
    name: 'insights',
    partitionKey: s('agentId'),
    sortKey: s('sk'),
    indexes: [{ name: 'byDay', partitionKey: s('agentId'), sortKey: s('daySk') }],
    ttlAttribute: 'expiresAtEpoch',
  },
  /**
   * Inbound e-mail (docs/email.md): a record per mail received (`mail#<id>`, sk `mail`: envelope, where its raw MIME is
   * in the blob store, the verdicts, the parsed text, its state), written before the mail is accepted. `pending` holds
   * only mails not worked yet (a sweeper finds those a crash left); `byCustomer` a workspace's mails by sender address
   * (`<workspace>#<address>`: export and erasure); `byConversation` the mails of a conversation (its erasure, retention).
   * `dedupe#…` items keep one record per SES message and per Message-ID.
   */
  mail: {
    name: 'mail',
    partitionKey: s('pk'),
    sortKey: s('sk'),
    indexes: [
      { name: 'pending', partitionKey: s('pendingState'), sortKey: s('receivedAt') },
      { name: 'byCustomer', partitionKey: s('customerKey'), sortKey: s('receivedAt') },
      { name: 'byConversation', partitionKey: s('conversationId'), sortKey: s('receivedAt') },
    ],
    ttlAttribute: 'expiresAtEpoch',
  },
  /**
   * The audit log (docs/audit.md): one item per entry, by workspace, newest last (`sk` = `<time>#<id>`), put once on a
   * new key and never updated or deleted by code (the functions may only PutItem here); DynamoDB's TTL ends it after the
   * workspace's retention. The indexes filter by actor, action and target (`<workspace>#<…>`), each by time.
   */
  auditLog: {
    name: 'audit-log',
    partitionKey: s('workspaceId'),
    sortKey: s('sk'),
    indexes: [
      { name: 'byActor', partitionKey: s('actorKey'), sortKey: s('sk') },
      { name: 'byAction', partitionKey: s('actionKey'), sortKey: s('sk') },
      { name: 'byTarget', partitionKey: s('targetKey'), sortKey: s('sk') },
    ],
    ttlAttribute: 'expiresAtEpoch',
  },
  /** The local platform's mailbox (GET /dev/mail.json); in AWS mail leaves through Amazon SES. */
  mailbox: { name: 'mailbox', partitionKey: s('mailbox'), sortKey: s('sk'), localOnly: true },
} as const satisfies Record<string, TableDefinition>;

export type TableName = keyof typeof TABLES;

export const physicalTableName = (prefix: string, table: TableName): string => `${prefix}${TABLES[table].name}`;
