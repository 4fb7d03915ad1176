import * as z from 'zod';
import { jsonObject } from './json-input';
import { RunSourceSchema } from './knowledge';
import { isoDateTime, limitParam, runId, text, uuid } from './primitives';
import { CONVERSATION_LANGUAGES, normalizeConversationLanguage } from '../languages';
import { LIVE_LIMITS } from '../live-conversation';

/** `confirm`: the agent reads freely, and waits for a person's approval before each tool that changes something. */
export const AUTONOMY_LEVELS = ['full', 'read_only', 'confirm'] as const;
/** `requires_action`: a `confirm` run waits for approval of its `pending_action` (agents/command_approve or _reject). */
export const RUN_STATUSES = ['queued', 'running', 'requires_action', 'completed', 'failed', 'cancelled'] as const;
/** How long a run waits for a person's answer before it ends `cancelled`. */
export const APPROVAL_TTL_HOURS = 24;

const hexColor = z.string().regex(/^#[0-9a-fA-F]{6}$/, { error: 'a colour is #rrggbb' });
const delayMs = z.number().int().min(0).max(600_000);
export const AgentColors = z.object({ primary: hexColor, gradient_from: hexColor, gradient_to: hexColor }).meta({ id: 'AgentColors' });
export const WidgetTimings = z
  .object({
    show_delay_ms: delayMs.meta({ description: 'Delay before the launcher appears' }),
    teaser_delay_ms: delayMs.meta({ description: 'Delay before the teaser bubble' }),
    idle_nudge_delay_ms: delayMs.meta({ description: 'Idle time before the nudge' }),
  })
  .meta({ id: 'WidgetTimings' });
/** An agent's language: a conversation language as a BCP 47 tag, stored normalized (`DE` -> `de`, `pt_br` -> `pt-BR`). */
const agentLocale = z
  .string()
  .max(35)
  .refine((value) => normalizeConversationLanguage(value) !== undefined, {
    error: `locale is a conversation language (BCP 47) such as de or pt-BR, one of: ${CONVERSATION_LANGUAGES.join(', ')}`,
  })
  .overwrite((value) => normalizeConversationLanguage(value) ?? value)
  .meta({
    description:
      'The language the agent answers in when a conversation does not show its own (BCP 47: one of the 40+ conversation languages, e.g. de or pt-BR)',
  });

/** How the agent answers the e-mail its address receives (docs/email.md). */
const EmailAnswers = z.enum(['auto', 'draft']).meta({
  description:
    '`auto`: the agent answers inbound e-mail itself; `draft`: it writes a draft (an internal note) and the conversation waits for a teammate, who sends the reply',
});

/** Whether the agent may pass a conversation to people (its `handoff` tool, the widget's Talk to a person), and the words that do it at once. */
export const HandoffSettings = z
  .object({
    enabled: z.boolean().meta({ description: 'The agent offers people: its `handoff` tool and the widget\'s "Talk to a person"' }),
    keywords: z
      .array(z.string().trim().min(2).max(LIVE_LIMITS.handoffKeywordChars))
      .max(LIVE_LIMITS.handoffKeywords)
      .meta({ description: "A visitor's message containing one of these words or phrases (any case) goes to people without the agent" }),
  })
  .meta({ id: 'HandoffSettings' });

/** An allowed embedding origin: scheme://host[:port], or with the port wildcard `:*`. */
const allowedOrigin = z
  .string()
  .max(300)
  .regex(/^https?:\/\/[A-Za-z0-9.-]+(:(\d{1,5}|\*))?$/, { error: 'an origin is scheme://host[:port], e.g. https://shop.example or http://localhost:*' });

/**
 * The widget's messages a minute to one agent from all its visitors together (per visitor it is 20). The default fits
 * a busy site (100 a second: thousands of visitors chatting at once); spend is bounded by the budgets, not by this.
 */
export const WIDGET_AGENT_RATE = { defaultPerMinute: 6_000, minPerMinute: 10, maxPerMinute: 100_000 } as const;
const widgetRate = z.number().int().min(WIDGET_AGENT_RATE.minPerMinute).max(WIDGET_AGENT_RATE.maxPerMinute);

export const Agent = z
  .object({
    id: z.uuid(),
    name: z.string(),
    role: z.string(),
    preset: z.string(),
    persona: z.string(),
    email: z.string(),
    locale: z.string(),
    avatar_url: z.string(),
    skills: z.array(z.string()),
    created_at: isoDateTime,
    company_name: z.string().meta({ description: 'The company name the widget shows' }),
    colors: AgentColors,
    widget: WidgetTimings,
    teaser_word: z.string().meta({ description: 'The word the teaser bubble highlights' }),
    allowed_origins: z.array(z.string()).meta({ description: 'Page origins that may embed the widget (`http://localhost:*` allows any port)' }),
    handoff: HandoffSettings,
    email_answers: EmailAnswers,
    widget_rate_per_minute: widgetRate.meta({
      description: `Widget messages a minute to this agent from all visitors together (default ${WIDGET_AGENT_RATE.defaultPerMinute})`,
    }),
    identity_jwks_url: z
      .string()
      .nullable()
      .meta({ description: 'Where the company publishes the keys of its RS256/ES256 visitor tokens (null: HS256 with the identity secret only)' }),
  })
  .meta({ id: 'Agent' });

export const AgentIdQuery = z.object({ agent_id: uuid('agent_id') });
export const AgentIdBody = z.object({ agent_id: uuid('agent_id') }).strict();

export const CreateAgentBody = z
  .object({
    preset: z.string({ error: 'preset is required' }).min(1),
    name: text(80).optional(),
    role: text(120).optional(),
    persona: text(4000).optional(),
    locale: agentLocale.optional(),
  })
  .strict();

export const CommandBody = z
  .object({
    agent_id: uuid('agent_id'),
    instruction: text(10_000),
    data: jsonObject().optional(),
    autonomy: z.enum(AUTONOMY_LEVELS).optional(),
    schema: jsonObject().optional(),
  })
  .strict();

export const RunSummary = z.object({ run_id: z.string(), status: z.enum(RUN_STATUSES), autonomy: z.enum(AUTONOMY_LEVELS) }).meta({ id: 'RunSummary' });

export const CommandAccepted = z.object({ run: RunSummary.extend({ agent_id: z.uuid(), created_at: isoDateTime }) });

export const RunIdQuery = z.object({ run_id: runId });

export const Usage = z.object({ input_tokens: z.number().int(), output_tokens: z.number().int() }).meta({ id: 'TokenUsage' });

export const PendingAction = z
  .object({
    approval_id: z.string().meta({ description: 'The approval this run waits for; one answer, from any door, wins' }),
    capability: z.string().meta({ description: '`code.action` of the tool the agent wants to use' }),
    arguments: z.record(z.string(), z.unknown()).meta({ description: 'As the model gave them, secret-looking values replaced by "[redacted]"' }),
    reason: z.string().meta({ description: "The agent's own reason, in one sentence" }),
    requested_at: isoDateTime,
    expires_at: isoDateTime.meta({ description: `Unanswered by then, the run ends \`cancelled\` (${APPROVAL_TTL_HOURS} h after the request)` }),
  })
  .meta({ id: 'PendingAction' });

export const Run = z
  .object({
    run_id: z.string(),
    agent_id: z.uuid(),
    status: z.enum(RUN_STATUSES),
    autonomy: z.enum(AUTONOMY_LEVELS),
    instruction: z.string(),
    result_text: z.string().nullable(),
    output: z.record(z.string(), z.unknown()).nullable(),
    output_error: z.string().nullable(),
    sources: z.array(RunSourceSchema).meta({
      description:
        "The passages of the company's knowledge the answer rests on (what its knowledge searches returned), each with the document, its URL and the passage quoted",
    }),
    error: z.string().nullable(),
    usage: Usage,
    created_at: isoDateTime,
    completed_at: isoDateTime.nullable(),
    cancel_requested_at: isoDateTime
      .nullable()
      .meta({ description: 'When agents/command_cancel asked the run to stop; no model turn or tool call starts after its answer' }),
    cancelled_by: z
      .string()
      .nullable()
      .meta({ description: 'Who stopped the run: `api_key`, `mcp`, the user id of the member who stopped it in the dashboard, or `approval_expired`' }),
    pending_action: PendingAction.nullable().meta({ description: 'While `requires_action`: the action waiting for approval' }),
  })
  .meta({ id: 'Run' });

export const ApprovalBody = z
  .object({ run_id: runId, note: text(1000).optional().meta({ description: 'Kept with the answer; a rejection tells it to the agent' }) })
  .strict();

export const ApprovalsQuery = z.object({ agent_id: uuid('agent_id').optional(), limit: limitParam });

/** A run waiting for a person: what "Waiting for you" lists. */
export const WaitingRun = z
  .object({ run_id: z.string(), agent_id: z.uuid(), instruction: z.string(), created_at: isoDateTime, pending_action: PendingAction })
  .meta({ id: 'WaitingRun' });

export const CancelBody = z.object({ run_id: runId }).strict();

export const RunsQuery = z.object({ agent_id: uuid('agent_id'), limit: limitParam });

export const AgentUpdateBody = z
  .object({
    agent_id: uuid('agent_id'),
    name: text(80).optional(),
    role: text(120).optional(),
    persona: text(4000).optional(),
    locale: agentLocale.optional(),
    avatar_url: z
      .string()
      .max(2048)
      .regex(/^(https:\/\/|\/)[^\s]*$/, { error: 'avatar_url is an https URL or a path on this platform' })
      .optional(),
    company_name: text(120).optional(),
    colors: AgentColors.partial().strict().optional(),
    widget: WidgetTimings.partial().strict().optional(),
    teaser_word: z.string().trim().max(80).optional(),
    allowed_origins: z.array(allowedOrigin).max(50).optional(),
    handoff: HandoffSettings.partial().strict().optional(),
    email_answers: EmailAnswers.optional(),
    widget_rate_per_minute: widgetRate.optional(),
    identity_jwks_url: z
      .url({ protocol: /^https?$/, error: 'identity_jwks_url is the https URL of a JWKS' })
      .max(2048)
      .nullable()
      .optional(),
  })
  .strict();
