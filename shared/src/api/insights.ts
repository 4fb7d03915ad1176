import * as z from 'zod';
import type { EndpointContract } from './contract';
import { isoDate, isoDateTime, uuid } from './primitives';

const contract = <const T extends EndpointContract>(endpoint: T): T => endpoint;

export const INSIGHTS_LIMITS = {
  /** The longest range one request may read, in days (both ends included). */
  maxRangeDays: 92,
  /** How long a visitor stays quiet after the agent's answer before the conversation counts as resolved (or abandoned). */
  quietMinutes: 30,
  /** Rating comments one answer carries, newest first. */
  maxComments: 100,
  /** Knowledge gaps one answer carries, most asked first. */
  maxGaps: 20,
} as const;

const DAY_MS = 24 * 60 * 60 * 1000;
const daysBetween = (from: string, to: string) => Math.round((Date.parse(to) - Date.parse(from)) / DAY_MS) + 1;

export const InsightsQuery = z
  .object({ agent_id: uuid('agent_id'), from: isoDate, to: isoDate })
  .refine((q) => q.from <= q.to, { error: 'from must not be after to', path: ['from'] })
  .refine((q) => daysBetween(q.from, q.to) <= INSIGHTS_LIMITS.maxRangeDays, {
    error: `the range may cover at most ${INSIGHTS_LIMITS.maxRangeDays} days`,
    path: ['to'],
  });

const usd = z.number().meta({ description: 'US dollars' });
const millis = z.number().int().nullable().meta({ description: 'Milliseconds; null when nothing was measured' });

export const InsightsMeasures = z.object({
  conversations: z.number().int().meta({ description: 'Conversations (widget and e-mail) that started on the day' }),
  resolved: z.number().int().meta({
    description:
      'Resolved by the agent (docs/insights.md: the last answer rated up, or no handoff, answered and quiet for the quiet period, not rated down, not "I do not know")',
  }),
  handed_off: z.number().int().meta({ description: 'Passed to people (the visitor asked, the agent handed off, a keyword, or a teammate took it)' }),
  abandoned: z.number().int().meta({
    description: "Neither: quiet for the quiet period with the visitor's last message unanswered, its answer rated down, or the agent saying it does not know",
  }),
  open: z.number().int().meta({ description: 'Still within the quiet period after its last message: not yet counted as any of the three' }),
  answers: z.number().int().meta({ description: "The agent's answers in those conversations" }),
  unanswered: z
    .number()
    .int()
    .meta({ description: 'Answers that left the question unanswered (the knowledge had nothing, or the agent said it does not know)' }),
  ratings_up: z.number().int(),
  ratings_down: z.number().int(),
  tool_calls: z.number().int().meta({ description: 'Skill tool calls of the conversations and runs' }),
  tool_failures: z.number().int().meta({ description: 'Those that failed (an error thrown or answered)' }),
  runs: z.number().int().meta({ description: 'Runs (REST, MCP, dashboard commands) created on the day that ended' }),
  runs_failed: z.number().int(),
  input_tokens: z.number().int(),
  output_tokens: z.number().int(),
  model_cost_usd: usd.meta({ description: "Tokens at the configured model's price (MODEL_PRICE)" }),
  platform_cost_usd: usd.meta({ description: "An estimate: the platform's own AWS cost per conversation and per run, as the benchmarks measured it" }),
  cost_per_conversation_usd: usd.nullable(),
  cost_per_run_usd: usd.nullable(),
  first_response_ms_agent: millis.meta({ description: "Median time from the visitor's first message to the agent's first answer" }),
  first_response_ms_human: millis.meta({ description: "Median time from the handoff to a teammate's first reply" }),
});

export const InsightsDay = InsightsMeasures.extend({ date: isoDate });

/** What one channel's conversations of the range made: the conversation measures, the runs' left out (they have no channel). */
export const InsightsChannelMeasures = InsightsMeasures.pick({
  conversations: true,
  resolved: true,
  handed_off: true,
  abandoned: true,
  open: true,
  answers: true,
  unanswered: true,
  ratings_up: true,
  ratings_down: true,
  first_response_ms_agent: true,
  first_response_ms_human: true,
});

export const InsightsReport = z
  .object({
    agent_id: z.uuid(),
    from: isoDate,
    to: isoDate,
    quiet_minutes: z.number().int(),
    pricing: z.object({
      model: z.string(),
      input_per_million_usd: usd,
      output_per_million_usd: usd,
      platform_per_conversation_usd: usd,
      platform_per_run_usd: usd,
    }),
    total: InsightsMeasures,
    by_channel: z.object({ widget: InsightsChannelMeasures, email: InsightsChannelMeasures }).meta({
      description:
        "The range's conversations by the channel they came in by (`widget`, `email`: a widget conversation continued by mail stays `widget`); their sums are the total's",
    }),
    days: z.array(InsightsDay).meta({ description: 'Every day of the range, oldest first (zeros on a quiet day)' }),
    knowledge_gaps: z.array(z.object({ id: z.string(), text: z.string(), language: z.string(), count: z.number().int(), last_asked_at: isoDateTime })).meta({
      description:
        'Questions the knowledge could not answer, most asked first (knowledge/unanswered_list): write an answer with knowledge/answer_create and its unanswered_id',
    }),
    comments: z
      .array(z.object({ conversation_id: z.uuid(), message_id: z.string(), rating: z.enum(['up', 'down']), comment: z.string(), at: isoDateTime }))
      .meta({ description: `Visitors' rating comments of the range, newest first (at most ${INSIGHTS_LIMITS.maxComments})` }),
  })
  .meta({ id: 'InsightsReport' });

export const INSIGHTS_ENDPOINTS = {
  insightsAgent: contract({
    path: 'insights/agent',
    method: 'GET',
    summary: `How an agent does, per day: conversations resolved, handed off or abandoned, unanswered questions, ratings, tool calls and failures, cost, first response times (a range of at most ${INSIGHTS_LIMITS.maxRangeDays} days)`,
    query: InsightsQuery,
    data: InsightsReport,
    status: 200,
    access: 'read',
  }),
} as const;
