import { QUEUE_BATCH_SIZE, ROUTES, type QueueName, type TableName } from '@service/shared';

export type HttpMethodName = 'ANY' | 'GET' | 'POST' | 'OPTIONS';

/** How a function is invoked. */
export type Trigger =
  /** Routes of the shared API Gateway HTTP API. */
  | { kind: 'http'; routes: { path: string; methods: HttpMethodName[] }[] }
  /** An SQS event source mapping with partial batch responses (ReportBatchItemFailures). */
  | { kind: 'queue'; queue: QueueName; batchSize: number }
  /** A public Lambda Function URL streaming its response (RESPONSE_STREAM), CORS open to any origin. */
  | { kind: 'streaming-url' }
  /** An EventBridge rule invoking the function at a fixed rate. */
  | { kind: 'schedule'; everyMinutes: number };

export interface PlatformFunction {
  /** Construct id, also the key of the function in stack.functions. */
  id: string;
  /** Repository-relative handler file exporting `handler`; synth skips the entry while the file does not exist. */
  entry: string;
  trigger: Trigger;
  timeoutSeconds: number;
  memoryMb: number;
  /** Tables it only reads, and tables it writes (writers may read too). Nothing else is granted. */
  reads: TableName[];
  writes: TableName[];
  /**
   * Tables it only adds items to: `dynamodb:PutItem` and nothing else, never UpdateItem or DeleteItem (the audit log,
   * append-only; a reader lists it in `reads` too). cdk/test/audit-grants.test.ts checks no function can change an entry.
   */
  appends?: TableName[];
  /** Queues it puts messages on (a queue trigger grants consuming separately). */
  sendsTo: QueueName[];
  /** Mints or verifies skill turn tokens: gets TURN_TOKEN_SECRET_ARN and read access to that secret. */
  turnTokens: boolean;
  /** Calls the language model on Amazon Bedrock. */
  model: boolean;
  /** Calls the built-in skills: gets BUILTIN_SKILL_URLS and their shared bearer (SKILL_BEARER_SECRET_ARN). */
  builtinSkills?: true;
  /** Serves the administrative routes: gets MASTER_KEY_SECRET_ARN. */
  masterKey?: true;
  /**
   * Opens the knowledge index and files in the knowledge bucket: gets KNOWLEDGE_INDEX_URI and KNOWLEDGE_BLOB_URI,
   * the LanceDB layer (and so runs on x86_64, see lancedb-layer.ts), and S3 access by what it does there: `search`
   * reads the index only; `manage` also writes the index and the files (uploads, crawled pages, deletions).
   */
  knowledge?: 'search' | 'manage';
  /**
   * Sends e-mail through Amazon SES (sign-in codes, invitations, the agents' mail): gets MAIL_FROM, AGENT_MAIL_DOMAIN
   * (the domain of the addresses agents are hired with) and ses:SendEmail.
   */
  sendsMail?: true;
  /**
   * Inbound mail's files: MAIL_BLOB_URI (the bucket's `mail/` folder, where SES receiving saves the raw MIME and the
   * attachments are kept). `receive` (the InboundMail worker) reads the raw mail and keeps attachments: s3:GetObject and
   * s3:PutObject; `manage` (downloads, export, erasure, retention) reads, lists and deletes them.
   */
  inboundMail?: 'receive' | 'manage';
  /** Prices the model's tokens (insights/agent's model cost): gets MODEL_PRICE when the deploy sets `modelPrice`. */
  pricesModel?: true;
}

/**
 * Every Lambda of the platform, one entry each. Adding a handler is one entry here; the stack derives the
 * function, its trigger, its environment and its least-privilege grants from it. cdk/test/grants-match-code.test.ts
 * checks the tables and queues of each existing handler against what its code uses; entries for handlers not
 * written yet are the plan, checked once the file exists.
 */
export const FUNCTIONS: readonly PlatformFunction[] = [
  {
    id: 'Api',
    entry: 'lambdas/src/entries/lambda/api.ts',
    // The REST API, and spec 1's agent list (the same API keys): ANY, so another method gets the 405 envelope and a
    // preflight no CORS headers from the function.
    trigger: {
      kind: 'http',
      routes: [
        { path: ROUTES.restApi, methods: ['ANY'] },
        { path: ROUTES.agentList, methods: ['ANY'] },
      ],
    },
    timeoutSeconds: 29,
    memoryMb: 1024,
    // connectionCalls: the recent calls of an MCP connection (connections/calls).
    // runSteps: agents/command_status lists a run's steps. insights: insights/agent reads an agent's facts of a range.
    // evalRuns: agents/draft_publish with require_suite_pass reads the draft's latest eval run.
    // auditLog: audit/list reads it; every change made through the API appends its entry (appends).
    reads: ['workspaces', 'connectionCalls', 'runSteps', 'evalRuns', 'insights', 'auditLog'],
    // rateLimits: failed credentials are counted per source and key prefix (progressive delays).
    writes: [
      'agents',
      'apiKeys',
      'runs',
      'idempotency',
      'webhookSubscriptions',
      'webhookDeliveries',
      'records',
      'usage',
      'skills',
      'rateLimits',
      // People (the dashboard): accounts, memberships, invitations, sessions (sign-in codes and passkeys: AuthApi).
      'users',
      'memberships',
      'invitations',
      'sessions',
      // MCP connections: listed and withdrawn; MCP keys: made, listed and revoked (connections/*).
      'connections',
      'mcpKeys',
      // Knowledge (knowledge/*): sources, their documents and the website crawl frontier. The crawl itself runs on the
      // knowledge queue (KnowledgeConsumer). knowledgeUnanswered: listed, dismissed, cleared by an answer, and recorded
      // after a run MCP's ask_agent waits for.
      'knowledgeSources',
      'knowledgeDocuments',
      'knowledgeCrawl',
      'knowledgeUnanswered',
      // telemetry/settings_get|update: where the workspace's spans go.
      'telemetrySettings',
      // agents/draft_*: the agent's draft; publishing with require_suite_pass reads the draft's latest eval run.
      'agentDrafts',
    ],
    // agents/command enqueues runs; redelivering a webhook event enqueues a delivery; a source's sync starts on the
    // knowledge queue.
    sendsTo: ['runs', 'webhooks', 'knowledge'],
    appends: ['auditLog'],
    turnTokens: false,
    model: false,
    sendsMail: true,
    // knowledge/document_upload indexes a file at once, knowledge/search searches, knowledge/source_delete removes.
    knowledge: 'manage',
    pricesModel: true,
  },
  {
    id: 'Runner',
    entry: 'lambdas/src/entries/lambda/runner.ts',
    trigger: { kind: 'queue', queue: 'runs', batchSize: QUEUE_BATCH_SIZE.runs },
    timeoutSeconds: 300,
    memoryMb: 1024,
    // knowledgeSources: the sites of the agent's sources, which an answer may link (the link policy).
    reads: ['agents', 'webhookSubscriptions', 'knowledgeSources'],
    // skills: installed skills and grants are read, each turn is recorded.
    // runSteps: each run's steps, a batch per model turn, and its text pieces (one per 100 ms of a turn being written).
    // knowledgeUnanswered: a question the run found no passage for, or said it does not know. telemetrySettings: where
    // the run's spans go, and the counts of spans exported and dropped.
    // insights: each ended run's facts (tokens, tool calls and failures).
    writes: ['runs', 'runSteps', 'usage', 'webhookDeliveries', 'skills', 'knowledgeUnanswered', 'telemetrySettings', 'insights'],
    sendsTo: ['webhooks'],
    turnTokens: true,
    builtinSkills: true,
    model: true,
  },
  {
    id: 'WebhookDeliverer',
    entry: 'lambdas/src/entries/lambda/webhook-deliverer.ts',
    trigger: { kind: 'queue', queue: 'webhooks', batchSize: QUEUE_BATCH_SIZE.webhooks },
    timeoutSeconds: 60,
    memoryMb: 512,
    // skills: a skill's inbound events go to its registered events URL.
    reads: ['skills'],
    writes: ['webhookSubscriptions', 'webhookDeliveries'],
    // Retries longer than SQS's 15-minute delay limit re-enqueue themselves in hops.
    sendsTo: ['webhooks'],
    turnTokens: false,
    model: false,
  },
  {
    id: 'SkillApi',
    entry: 'lambdas/src/entries/lambda/skill-api.ts',
    // serviceApi calls of skills (turn token only) and the operators' administrative routes (master key only).
    trigger: {
      kind: 'http',
      routes: [
        { path: ROUTES.skillCallbacks, methods: ['POST'] },
        { path: ROUTES.operatorApi, methods: ['POST'] },
      ],
    },
    timeoutSeconds: 15,
    memoryMb: 512,
    // knowledgeSources: the knowledge skill's search callback reads which sources the agent may search.
    reads: ['agents', 'webhookSubscriptions', 'knowledgeSources'],
    // Provisioning (admin/workspaces/create) creates the workspace and its first key; a record a skill creates emits
    // its event (contact.created, …) to webhooks and skills; failed master keys are counted (rateLimits).
    // users, memberships, invitations: provisioning makes the first owner and mails their invitation.
    writes: ['records', 'skills', 'workspaces', 'apiKeys', 'webhookDeliveries', 'rateLimits', 'users', 'memberships', 'invitations'],
    // The operators' changes (skills registered, roles, grants) are recorded in the workspace's audit log.
    appends: ['auditLog'],
    sendsTo: ['webhooks'],
    turnTokens: true,
    model: false,
    masterKey: true,
    // The e-mail skill's mail and the first owner's invitation.
    sendsMail: true,
    // The knowledge skill's search callback.
    knowledge: 'search',
  },
  {
    id: 'ConversationsApi',
    entry: 'lambdas/src/entries/lambda/conversations-api.ts',
    // conversations/*: the REST function that reads visitors' conversations and lets teammates take part in them.
    // visitors/*: a visitor's data (export, erasure, retention) reads and erases the same conversations.
    trigger: {
      kind: 'http',
      routes: [
        { path: ROUTES.conversationsApi, methods: ['ANY'] },
        { path: ROUTES.visitorsApi, methods: ['ANY'] },
        { path: ROUTES.evalsApi, methods: ['ANY'] },
      ],
    },
    timeoutSeconds: 15,
    memoryMb: 512,
    // usage: the pipeline's token read-ahead (agents/command only, never reached here, but bundled). The conversation
    // events go to the webhooks and skills that want them (webhookSubscriptions, skills).
    // evals/*: saving a scenario from a run reads the run and its steps (runs, runSteps); results hold transcripts.
    reads: ['agents', 'memberships', 'usage', 'webhookSubscriptions', 'skills', 'runs', 'runSteps', 'evalResults'],
    // Teammates' messages, notes and changes of hands (conversations), their webhook deliveries; the REST pipeline's
    // own: keys (last use, rate limit), sessions (last activity), failed credentials, idempotency.
    writes: [
      'conversations',
      'webhookDeliveries',
      'apiKeys',
      'sessions',
      'rateLimits',
      'idempotency',
      // visitors/*: the erasure and its audit record, what derives from a visitor's conversations (contacts the agent
      // created, unanswered questions), the workspace's retention setting.
      'visitorErasures',
      'records',
      'knowledgeUnanswered',
      'workspaces',
      // evals/*: the scenarios, and the eval runs started here (the EvalRunner plays them from the evals queue).
      'evalScenarios',
      'evalRuns',
      // insights: a handoff (a teammate's claim) and a teammate's first reply.
      'insights',
      // mail: a held mail accepted or dismissed, a visitor's mails exported and erased.
      'mail',
    ],
    // Availability, visitors' export and erasure, retention: recorded in the audit log.
    appends: ['auditLog'],
    sendsTo: ['webhooks', 'evals'],
    // A mail's attachments downloaded, its raw MIME exported, its folder erased.
    inboundMail: 'manage',
    turnTokens: false,
    model: false,
    // A teammate's reply to a visitor who left an e-mail address when nobody was available.
    sendsMail: true,
  },
  {
    id: 'EvalRunner',
    entry: 'lambdas/src/entries/lambda/eval-runner.ts',
    // One eval run a message: its scenarios played one after another through the widget's reply or the run executor,
    // acting tools sandboxed. A long suite that outlasts one invocation goes on from its stored results on the retry.
    trigger: { kind: 'queue', queue: 'evals', batchSize: QUEUE_BATCH_SIZE.evals },
    timeoutSeconds: 900,
    memoryMb: 1024,
    // knowledgeSources: a draft that names its knowledge sources is searched as those (domains/knowledge/search.ts).
    reads: ['agents', 'agentDrafts', 'evalScenarios', 'webhookSubscriptions', 'knowledgeSources'],
    writes: ['evalRuns', 'evalResults', 'usage', 'webhookDeliveries', 'skills', 'runSteps', 'knowledgeUnanswered', 'telemetrySettings'],
    sendsTo: ['webhooks'],
    turnTokens: true,
    builtinSkills: true,
    model: true,
    knowledge: 'search',
  },
  {
    id: 'InboundMail',
    entry: 'lambdas/src/entries/lambda/inbound-mail.ts',
    // One inbound mail a message (docs/email.md): stored, authenticated, threaded into its conversation and answered
    // by the agent through the widget's own reply; a failure is retried, then dead-lettered.
    trigger: { kind: 'queue', queue: 'mail', batchSize: QUEUE_BATCH_SIZE.mail },
    timeoutSeconds: 120,
    memoryMb: 1024,
    reads: ['workspaces', 'webhookSubscriptions', 'knowledgeSources', 'telemetrySettings'],
    writes: ['mail', 'agents', 'conversations', 'usage', 'insights', 'webhookDeliveries', 'skills'],
    // mail: acceptMail's own message (an SES receipt is worked at once, with none).
    sendsTo: ['webhooks', 'mail'],
    turnTokens: true,
    builtinSkills: true,
    model: true,
    knowledge: 'search',
    sendsMail: true,
    inboundMail: 'receive',
  },
  {
    id: 'AuthApi',
    entry: 'lambdas/src/entries/lambda/auth-api.ts',
    // auth/*: sign-in codes, sessions and passkeys; the only function carrying the WebAuthn verifier.
    trigger: { kind: 'http', routes: [{ path: ROUTES.authApi, methods: ['ANY'] }] },
    timeoutSeconds: 15,
    memoryMb: 512,
    // usage: the pipeline's token read-ahead (agents/command only, never reached here, but bundled).
    // Sign-ins, failed ones and passkeys go to the audit log of each of the person's workspaces (appends), and out as
    // `audit.event` to the webhooks and skills that want it (agents, skills, webhookSubscriptions, webhookDeliveries).
    reads: ['workspaces', 'usage', 'agents', 'skills', 'webhookSubscriptions'],
    // The people's tables (a code's invitation makes the user and the membership), the REST pipeline's own (keys,
    // failed credentials and rate limits, idempotency).
    writes: ['users', 'memberships', 'invitations', 'signInCodes', 'sessions', 'passkeys', 'apiKeys', 'rateLimits', 'idempotency', 'webhookDeliveries'],
    appends: ['auditLog'],
    sendsTo: ['webhooks'],
    turnTokens: false,
    model: false,
    // Sign-in codes.
    sendsMail: true,
  },
  {
    id: 'RunSweeper',
    entry: 'lambdas/src/entries/lambda/run-sweeper.ts',
    // Re-sends the message of a run a crash left unsent and fails runs abandoned past their bound; re-sends the message
    // of an eval run never taken or whose attempt went quiet (evalRuns, the evals queue); re-sends the message of an
    // inbound mail stored but left unworked (mail, the mail queue).
    trigger: { kind: 'schedule', everyMinutes: 1 },
    timeoutSeconds: 60,
    memoryMb: 512,
    reads: ['evalRuns', 'mail'],
    writes: ['runs'],
    sendsTo: ['runs', 'evals', 'mail'],
    turnTokens: false,
    model: false,
  },
  {
    id: 'ConversationSweeper',
    entry: 'lambdas/src/entries/lambda/conversation-sweeper.ts',
    // The claim timeout (issue 29): a conversation no teammate claimed in time gets the e-mail fallback
    // (domains/conversations/nobody-available.ts).
    trigger: { kind: 'schedule', everyMinutes: 1 },
    timeoutSeconds: 60,
    memoryMb: 512,
    // workspaces: the retention the e-mail request's entry expires with.
    reads: ['workspaces'],
    writes: ['conversations'],
    sendsTo: [],
    turnTokens: false,
    model: false,
  },
  {
    id: 'RetentionSweeper',
    entry: 'lambdas/src/entries/lambda/retention-sweeper.ts',
    // Erases conversations past their workspace's retention (and what derives from them), finishes erasures a crash
    // interrupted, and stamps the TTL attribute anew after a change of the setting (domains/visitors/retention-sweeper.ts).
    trigger: { kind: 'schedule', everyMinutes: 60 },
    timeoutSeconds: 900,
    memoryMb: 512,
    // workspaces: their retention; agents: whose conversations to visit; skills, webhookSubscriptions: read by the
    // records module the erasure shares with contact creation (who hears of a new record), never by the sweep itself.
    reads: ['workspaces', 'agents', 'skills', 'webhookSubscriptions'],
    // insights: the rating comments of an erased conversation.
    writes: ['conversations', 'visitorErasures', 'records', 'webhookDeliveries', 'idempotency', 'knowledgeUnanswered', 'insights', 'mail'],
    // Each retention erasure is the platform's entry in the workspace's audit log, sent on as `audit.event` (webhooks).
    appends: ['auditLog'],
    sendsTo: ['webhooks'],
    // An expired conversation's mails: their folders (raw MIME, attachments) erased with it.
    inboundMail: 'manage',
    turnTokens: false,
    model: false,
  },
  {
    id: 'KnowledgeConsumer',
    entry: 'lambdas/src/entries/lambda/knowledge-consumer.ts',
    // One page (or one stored document sync) per message; a failed one is retried, then dead-lettered.
    trigger: { kind: 'queue', queue: 'knowledge', batchSize: QUEUE_BATCH_SIZE.knowledge },
    // A page: fetched (bounded), extracted, chunked and indexed; a batch holds a few.
    timeoutSeconds: 120,
    memoryMb: 1024,
    // agents, skills, webhookSubscriptions: who receives knowledge.source.synced and .failed (subscriptions, skills).
    reads: ['agents', 'skills', 'webhookSubscriptions'],
    // knowledgeSources: status and counts; knowledgeDocuments: a document per page; knowledgeCrawl: the frontier;
    // webhookDeliveries: the sync's events.
    writes: ['knowledgeSources', 'knowledgeDocuments', 'knowledgeCrawl', 'webhookDeliveries'],
    // Pages found on a page are enqueued; the source's webhook events are delivered.
    sendsTo: ['knowledge', 'webhooks'],
    turnTokens: false,
    model: false,
    knowledge: 'manage',
  },
  {
    id: 'KnowledgeSchedule',
    entry: 'lambdas/src/entries/lambda/knowledge-schedule.ts',
    // Starts the syncs that are due (daily, weekly) and again those a crash stalled (domains/knowledge/schedule.ts).
    trigger: { kind: 'schedule', everyMinutes: 5 },
    timeoutSeconds: 60,
    memoryMb: 512,
    // skills, webhookSubscriptions: who would receive a sync's events (the sync code it shares with the consumer).
    reads: ['skills', 'webhookSubscriptions'],
    writes: ['knowledgeSources'],
    sendsTo: ['knowledge'],
    turnTokens: false,
    model: false,
  },
  {
    id: 'Widget',
    entry: 'lambdas/src/entries/lambda/widget.ts',
    trigger: { kind: 'http', routes: [{ path: ROUTES.widgetConfig, methods: ['GET', 'OPTIONS'] }] },
    timeoutSeconds: 10,
    memoryMb: 512,
    reads: ['agents'],
    writes: [],
    sendsTo: [],
    turnTokens: false,
    model: false,
  },
  {
    id: 'WidgetHistory',
    entry: 'lambdas/src/entries/lambda/widget-history.ts',
    trigger: { kind: 'http', routes: [{ path: ROUTES.widgetHistory, methods: ['GET', 'OPTIONS'] }] },
    timeoutSeconds: 10,
    memoryMb: 512,
    // workspaces: whether the workspace still takes the older visitor user hash.
    reads: ['agents', 'conversations', 'workspaces'],
    writes: [],
    sendsTo: [],
    turnTokens: false,
    model: false,
  },
  {
    id: 'Chat',
    entry: 'lambdas/src/entries/lambda/chat.ts',
    trigger: { kind: 'streaming-url' },
    timeoutSeconds: 120,
    memoryMb: 1024,
    // webhookSubscriptions: who hears of a handoff or of a visitor's message to people.
    // workspaces: the retention that stamps each conversation item's TTL. knowledgeSources: the sites of the agent's
    // sources, which a reply may link (the link policy).
    reads: ['agents', 'webhookSubscriptions', 'workspaces', 'knowledgeSources'],
    // skills: the visitor's (role public) granted skill tools are read and each turn is recorded. webhookDeliveries:
    // the conversation events (conversation.handoff_requested, conversation.message_created). knowledgeUnanswered: a
    // visitor's question the reply found no passage for. telemetrySettings: where the reply's spans go, and the counts.
    // insights: the conversation's facts (messages, answers, handoff) and the visitor's ratings (…/rating).
    writes: ['conversations', 'rateLimits', 'usage', 'skills', 'webhookDeliveries', 'knowledgeUnanswered', 'telemetrySettings', 'insights'],
    sendsTo: ['webhooks'],
    turnTokens: true,
    builtinSkills: true,
    model: true,
  },
  {
    id: 'RunStream',
    entry: 'lambdas/src/entries/lambda/run-stream.ts',
    // agents/command_stream (ROUTES.runStream), conversations/stream (ROUTES.conversationStream) and
    // conversations/inbox_stream (ROUTES.inboxStream): SSE needs response
    // streaming, which the HTTP API lacks; the dashboard's distribution routes the paths to this Function URL
    // (cdk/lib/dashboard.ts).
    trigger: { kind: 'streaming-url' },
    // A stream ends at 840 s and the client resumes with Last-Event-ID.
    timeoutSeconds: 900,
    memoryMb: 512,
    // The REST pipeline's reads (workspace, membership, the token read-ahead), the run with its steps and text pieces,
    // the conversation a teammate follows, the workspace's inbox feed, and the agent an inbox stream is narrowed to.
    reads: ['workspaces', 'memberships', 'usage', 'runs', 'runSteps', 'conversations', 'agents'],
    // The REST pipeline's own: keys (last use, rate limit), sessions (last activity), failed credentials, idempotency.
    writes: ['apiKeys', 'sessions', 'rateLimits', 'idempotency'],
    sendsTo: [],
    turnTokens: false,
    model: false,
  },
  {
    id: 'Mcp',
    entry: 'lambdas/src/entries/lambda/mcp.ts',
    // The MCP server, its authorization server and discovery documents, on one streaming Function URL (cdk/lib/mcp.ts).
    trigger: { kind: 'streaming-url' },
    // ask_agent waits at most 60 s for a run; the rest is margin.
    timeoutSeconds: 90,
    memoryMb: 1024,
    // memberships: the person's role, read at every call; the consent page lists their workspaces. mcpKeys: an MCP
    // key as the bearer. skills, webhookSubscriptions: who hears of a reply_conversation (conversation.* events).
    reads: ['agents', 'usage', 'workspaces', 'memberships', 'mcpKeys', 'skills', 'webhookSubscriptions'],
    // ask_agent stores its run; OAuth clients, connections, secrets by hash and recent calls; DCR is rate limited;
    // the consent page reads the sign-in session (and moves its last activity forward). conversations: list_conversations
    // and reply_conversation; webhookDeliveries: the conversation.message_created a reply emits.
    // insights: reply_conversation's claim and first reply.
    writes: [
      'runs',
      'oauthClients',
      'connections',
      'oauthTokens',
      'connectionCalls',
      'rateLimits',
      'sessions',
      'conversations',
      'webhookDeliveries',
      'insights',
    ],
    // runs: ask_agent; webhooks: the first attempts of a reply's conversation events.
    // The consent page's approval is recorded in the workspace's audit log.
    appends: ['auditLog'],
    sendsTo: ['runs', 'webhooks'],
    turnTokens: false,
    model: false,
    // reply_conversation mails the visitor who left an address (domains/conversations/reply-by-mail.ts).
    sendsMail: true,
  },
];
