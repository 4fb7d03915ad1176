import * as z from 'zod';
import type { EndpointContract } from './contract';
import { Agent, AgentUpdateBody } from './agents';
import { jsonObject } from './json-input';
import { isoDateTime, text, uuid } from './primitives';

const contract = <const T extends EndpointContract>(endpoint: T): T => endpoint;

export const EVAL_LIMITS = {
  scenariosPerAgent: 200,
  turnsPerScenario: 10,
  expectationsPerTurn: 10,
  userMessageChars: 4000,
  expectationChars: 500,
  nameChars: 200,
  /** A stored transcript line is cut here (a failure shows what the agent said, not a book). */
  transcriptChars: 4000,
} as const;

export const EVAL_DOORS = ['widget', 'command', 'email'] as const;
export const EVAL_RUN_STATUSES = ['queued', 'running', 'completed', 'failed'] as const;
/** `not_graded`: a judge the configured model cannot grade (the offline model); never counted as passed or failed. */
export const EXPECTATION_OUTCOMES = ['passed', 'failed', 'not_graded'] as const;

const phrase = text(EVAL_LIMITS.expectationChars);
const toolName = z
  .string()
  .trim()
  .min(1)
  .max(130)
  .meta({ description: 'A tool as the agent calls it (`email__send`), or its capability (`email.send`), or `handoff`' });

/** Each expectation is exactly one of these shapes (strict objects: a misspelt key is a validation error, never ignored). */
export const Expectation = z
  .union(
    [
      z.strictObject({
        tool_called: toolName,
        args: jsonObject().optional().meta({ description: 'Each given argument must match: a string is contained (any case), anything else equal' }),
      }),
      z.strictObject({ tool_not_called: toolName }),
      z.strictObject({ no_action: z.literal(true).meta({ description: 'No acting tool (one that writes or sends) and no handoff' }) }),
      z.strictObject({ answer_contains: phrase.meta({ description: 'The answer contains this text (any case)' }) }),
      z.strictObject({ answer_excludes: phrase.meta({ description: 'The answer does not contain this text (any case)' }) }),
      z.strictObject({ cites: phrase.meta({ description: 'A passage the answer rests on has this URL, title or document name (contained, any case)' }) }),
      z.strictObject({ says_unknown: z.literal(true).meta({ description: 'The agent says it does not know (or found nothing to answer from)' }) }),
      z.strictObject({ hands_off: z.literal(true).meta({ description: 'The agent passed the conversation to people (its handoff tool)' }) }),
      z.strictObject({
        output_schema: jsonObject().meta({ description: 'The command door only: the run is asked for this output schema and its `output` must match it' }),
      }),
      z.strictObject({ judge: phrase.meta({ description: 'A criterion in plain words graded by the configured model; `not_graded` with the offline model' }) }),
    ],
    {
      error:
        'an expectation is exactly one of tool_called (with args), tool_not_called, no_action, answer_contains, answer_excludes, cites, says_unknown, hands_off, output_schema, judge',
    },
  )
  .meta({ id: 'EvalExpectation' });
export type Expectation = z.infer<typeof Expectation>;

export const ScenarioTurn = z.strictObject({
  user: text(EVAL_LIMITS.userMessageChars).meta({
    description: "The visitor's message (widget), the command (command) or the customer's mail, its text (email)",
  }),
  expect: z.array(Expectation).max(EVAL_LIMITS.expectationsPerTurn).default([]),
});

const ScenarioFields = {
  name: text(EVAL_LIMITS.nameChars),
  door: z.enum(EVAL_DOORS).default('widget').meta({
    description:
      'Which door the scenario imitates: the widget conversation, agents/command, or an e-mail conversation (each turn a mail, answered as the agent answers mail)',
  }),
  page: z
    .url({ protocol: /^https?$/ })
    .max(2048)
    .optional()
    .meta({ description: 'The page the visitor is on (widget)' }),
  locale: z.string().max(35).optional().meta({ description: "The visitor's language (BCP 47)" }),
  identity: z
    .strictObject({ user_id: z.string().min(1).max(200), data: jsonObject().optional() })
    .optional()
    .meta({ description: 'A verified visitor: their user id and the data the site sets as context' }),
  turns: z.array(ScenarioTurn).min(1).max(EVAL_LIMITS.turnsPerScenario),
};

export const Scenario = z
  .object({
    id: z.string(),
    agent_id: z.uuid(),
    name: z.string(),
    door: z.enum(EVAL_DOORS),
    page: z.string().optional(),
    locale: z.string().optional(),
    identity: z.object({ user_id: z.string(), data: z.record(z.string(), z.unknown()).optional() }).optional(),
    turns: z.array(z.object({ user: z.string(), expect: z.array(Expectation) })),
    created_at: isoDateTime,
    updated_at: isoDateTime,
  })
  .meta({ id: 'EvalScenario' });

const scenarioId = z
  .string({ error: 'scenario_id is required' })
  .regex(/^scn_[A-Za-z0-9]{16}$/, { error: 'scenario_id is the id evals/scenario_create returned, beginning scn_' });
const evalRunId = z
  .string({ error: 'eval_run_id is required' })
  .regex(/^evr_[A-Za-z0-9]{20}$/, { error: 'eval_run_id is the id evals/run returned, beginning evr_' });

/** A scenario written by hand, or saved from a widget conversation or a run (turns drawn from it, editable later). */
export const ScenarioCreateBody = z.union(
  [
    z.strictObject({ agent_id: uuid('agent_id'), ...ScenarioFields }),
    z.strictObject({ agent_id: uuid('agent_id'), name: text(EVAL_LIMITS.nameChars).optional(), from_conversation_id: z.string().min(1).max(200) }),
    z.strictObject({ agent_id: uuid('agent_id'), name: text(EVAL_LIMITS.nameChars).optional(), from_run_id: z.string().regex(/^cmd_/).max(100) }),
  ],
  { error: 'a scenario is {agent_id, name, turns, …}, or {agent_id, from_conversation_id} or {agent_id, from_run_id} to save one' },
);

export const ScenarioUpdateBody = z.strictObject({ scenario_id: scenarioId, ...ScenarioFields });
export const ScenarioIdBody = z.strictObject({ scenario_id: scenarioId });
export const AgentScenariosQuery = z.object({ agent_id: uuid('agent_id') });

export const EvalRunBody = z.strictObject({
  agent_id: uuid('agent_id'),
  draft: z.boolean().default(false).meta({ description: "Play against the agent's draft (agents/draft_update) instead of the live agent" }),
});

export const ExpectationResult = z.object({
  expectation: Expectation,
  turn: z.number().int().meta({ description: 'The turn it was checked on (0-based)' }),
  outcome: z.enum(EXPECTATION_OUTCOMES),
  reason: z.string().nullable().meta({ description: 'Why it failed or was not graded' }),
});

export const TranscriptEntry = z.object({
  role: z.enum(['user', 'assistant', 'tool']),
  text: z.string(),
  tool: z.object({ name: z.string(), args: z.record(z.string(), z.unknown()), effect: z.enum(['read', 'act']), sandboxed: z.boolean() }).optional(),
});

export const ScenarioResult = z
  .object({
    scenario_id: z.string(),
    name: z.string(),
    passed: z.boolean().meta({ description: 'Every graded expectation passed (a not_graded judge neither passes nor fails it)' }),
    error: z.string().nullable().meta({ description: 'The scenario could not be played (the model failed)' }),
    expectations: z.array(ExpectationResult),
    transcript: z.array(TranscriptEntry),
  })
  .meta({ id: 'EvalScenarioResult' });

export const EvalRunDiff = z
  .object({
    previous_eval_run_id: z.string().nullable(),
    fixed: z.array(z.string()).meta({ description: 'Scenarios that failed last time and pass now' }),
    broke: z.array(z.string()).meta({ description: 'Scenarios that passed last time and fail now' }),
    still_failing: z.array(z.string()),
  })
  .meta({ id: 'EvalRunDiff' });

export const EvalRun = z
  .object({
    eval_run_id: z.string(),
    agent_id: z.uuid(),
    draft: z.boolean(),
    status: z.enum(EVAL_RUN_STATUSES),
    scenarios: z.number().int(),
    passed: z.number().int(),
    failed: z.number().int(),
    pass_rate: z.number().nullable().meta({ description: 'passed / scenarios, once completed' }),
    error: z.string().nullable(),
    created_at: isoDateTime,
    completed_at: isoDateTime.nullable(),
  })
  .meta({ id: 'EvalRun' });

export const EvalRunStatus = z.object({ eval_run: EvalRun, results: z.array(ScenarioResult), diff: EvalRunDiff.nullable() });
export const EvalRunQuery = z.object({ eval_run_id: evalRunId });

/** A draft: what agents/update takes, plus the skills and knowledge sources, kept apart from the live agent until published. */
export const DraftUpdateBody = AgentUpdateBody.extend({
  skills: z.array(z.string().min(1).max(64)).max(50).optional(),
  knowledge_source_ids: z.array(z.string().min(1).max(100)).max(100).optional(),
}).strict();

export const AgentDraft = z
  .object({
    agent_id: z.uuid(),
    changes: z.record(z.string(), z.unknown()).meta({ description: 'The fields the draft changes, as agents/draft_update took them' }),
    updated_at: isoDateTime,
  })
  .meta({ id: 'AgentDraft' });

export const DraftPublishBody = z.strictObject({
  agent_id: uuid('agent_id'),
  require_suite_pass: z
    .boolean()
    .default(false)
    .meta({ description: 'Refuse (409 EVAL_SUITE_NOT_PASSED) unless the latest eval run of the draft completed with every scenario passing' }),
});

const scenarioData = z.object({ scenario: Scenario });

export const EVAL_ENDPOINTS = {
  evalsScenarioCreate: contract({
    path: 'evals/scenario_create',
    method: 'POST',
    summary: 'Write a scenario (turns and the expectations checked on each reply), or save one from a widget conversation or a run',
    body: ScenarioCreateBody,
    data: scenarioData,
    status: 201,
    idempotent: true,
    access: 'manage',
  }),
  evalsScenarioList: contract({
    path: 'evals/scenario_list',
    method: 'GET',
    summary: "An agent's scenarios (its suite)",
    query: AgentScenariosQuery,
    data: z.object({ scenarios: z.array(Scenario) }),
    status: 200,
    access: 'read',
  }),
  evalsScenarioUpdate: contract({
    path: 'evals/scenario_update',
    method: 'POST',
    summary: 'Replace a scenario',
    body: ScenarioUpdateBody,
    data: scenarioData,
    status: 200,
    access: 'manage',
  }),
  evalsScenarioDelete: contract({
    path: 'evals/scenario_delete',
    method: 'POST',
    summary: 'Delete a scenario',
    body: ScenarioIdBody,
    data: z.object({ deleted: z.literal(true), scenario_id: z.string() }),
    status: 200,
    access: 'manage',
  }),
  evalsRun: contract({
    path: 'evals/run',
    method: 'POST',
    summary: "Play the agent's suite against the live agent or its draft (runs asynchronously; acting tools are recorded, never performed)",
    body: EvalRunBody,
    data: z.object({ eval_run: EvalRun }),
    status: 202,
    idempotent: true,
    access: 'manage',
  }),
  evalsRunStatus: contract({
    path: 'evals/run_status',
    method: 'GET',
    summary: 'An eval run: its pass rate, each scenario with its failures and transcript, and the diff against the previous run of the suite',
    query: EvalRunQuery,
    data: EvalRunStatus,
    status: 200,
    access: 'read',
  }),
} as const;

export const DRAFT_ENDPOINTS = {
  agentsDraftUpdate: contract({
    path: 'agents/draft_update',
    method: 'POST',
    summary: "Change the agent's draft (persona, settings, skills, knowledge sources) without touching the live agent",
    body: DraftUpdateBody,
    data: z.object({ draft: AgentDraft }),
    status: 200,
    access: 'manage',
  }),
  agentsDraftGet: contract({
    path: 'agents/draft_get',
    method: 'GET',
    summary: "The agent's draft (404 NOT_FOUND when it has none)",
    query: AgentScenariosQuery,
    data: z.object({ draft: AgentDraft }),
    status: 200,
    access: 'read',
  }),
  agentsDraftPublish: contract({
    path: 'agents/draft_publish',
    method: 'POST',
    summary: 'Make the draft live in one action; with require_suite_pass, only when the latest eval run of the draft passed (409 EVAL_SUITE_NOT_PASSED)',
    body: DraftPublishBody,
    data: z.object({ agent: Agent }),
    status: 200,
    access: 'manage',
  }),
} as const;
