import * as z from 'zod';
import { PendingAction, RUN_STATUSES, Run, Usage, RunIdQuery } from './agents';
import { isoDateTime } from './primitives';

/** The most text_delta events one model turn streams (its `index`); the rest of a longer turn comes whole as the last piece. */
export const TEXT_DELTAS_PER_TURN_MAX = 9_999;

/**
 * A run's steps, in the order they happened: `seq` counts from 0 (the run was queued) and is also the `id:` of the
 * step's event in agents/command_stream.
 */
const stepBase = { seq: z.number().int().min(0), at: isoDateTime };

export const StatusStep = z
  .object({ ...stepBase, type: z.literal('status'), status: z.enum(RUN_STATUSES), error: z.string().nullable().optional() })
  .meta({ id: 'RunStatusStep', description: 'The run changed status' });

export const TextStep = z
  .object({ ...stepBase, type: z.literal('text'), text: z.string(), usage: Usage, finish_reason: z.string() })
  .meta({ id: 'RunTextStep', description: 'One model turn: what the model wrote in it (whole, per turn) and its tokens' });

export const ToolCallStep = z
  .object({
    ...stepBase,
    type: z.literal('tool_call'),
    skill: z.string().meta({ description: 'The skill code' }),
    capability: z.string().meta({ description: '`code.action`' }),
    arguments: z.record(z.string(), z.unknown()).meta({ description: 'As the model gave them, secret-looking values replaced by "[redacted]"' }),
    result: z.unknown().optional().meta({ description: 'What the tool answered (long answers cut to a preview, secrets redacted)' }),
    error: z.string().nullable(),
    duration_ms: z.number().int().min(0),
  })
  .meta({ id: 'RunToolCallStep', description: 'A tool call and its result or error' });

export const ApprovalRequestedStep = z
  .object({ ...stepBase, type: z.literal('approval_requested'), ...PendingAction.shape })
  .meta({ id: 'RunApprovalRequestedStep', description: 'The run waits for a person to approve an action (status requires_action)' });

export const ApprovalAnsweredStep = z
  .object({
    ...stepBase,
    type: z.literal('approval_answered'),
    approval_id: z.string(),
    decision: z.enum(['approved', 'rejected']),
    answered_by: z.string().meta({ description: '`api_key`, `mcp`, or the user id of the member who answered' }),
    note: z.string().nullable(),
  })
  .meta({ id: 'RunApprovalAnsweredStep', description: 'A person approved the action (it runs once) or rejected it (the agent is told and carries on)' });

export const LinkRemovedStep = z
  .object({ ...stepBase, type: z.literal('link_removed'), url: z.string().meta({ description: 'The address taken out (secrets redacted)' }) })
  .meta({
    id: 'RunLinkRemovedStep',
    description:
      "A link the model wrote that pointed at neither a passage the run retrieved nor a page of the agent's own site: taken out of the answer before anyone saw it",
  });

/**
 * Text as the model writes it, between steps (an event of agents/command_stream, never a step of command_status): the
 * pieces after step `after_seq` join up, in `index` order, to the `text` of the turn's text step, which follows them
 * (seq `after_seq + 1`). Its event `id:` is `after_seq.index`.
 */
export const TextDelta = z
  .object({
    after_seq: z.number().int().min(0).meta({ description: 'The seq of the step the turn follows' }),
    index: z.number().int().min(1).max(TEXT_DELTAS_PER_TURN_MAX).meta({ description: 'The piece’s place in its turn, from 1' }),
    text: z.string().meta({ description: 'What the model wrote since the previous piece (secrets redacted as in the text step)' }),
  })
  .meta({ id: 'RunTextDelta', description: 'A piece of the text the model is writing; the pieces of a turn join to its text step' });

export const RunStep = z
  .discriminatedUnion('type', [StatusStep, TextStep, ToolCallStep, ApprovalRequestedStep, ApprovalAnsweredStep, LinkRemovedStep])
  .meta({ id: 'RunStep' });

export const STEPS_LIMIT_MAX = 200;

export const RunStatusQuery = RunIdQuery.extend({
  steps_cursor: z
    .string()
    .regex(/^\d{1,6}$/, { error: 'steps_cursor is the steps_next_cursor of the previous page' })
    .optional()
    .meta({ description: 'Continue the steps after the previous page (its steps_next_cursor)' }),
  steps_limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(STEPS_LIMIT_MAX)
    .default(50)
    .meta({ description: `Steps per page, 1-${STEPS_LIMIT_MAX} (default 50)` }),
});

export const RunWithSteps = Run.extend({
  steps: z.array(RunStep),
  steps_next_cursor: z.string().nullable().meta({ description: 'Pass as steps_cursor for the next steps; null when there are no more for now' }),
}).meta({ id: 'RunWithSteps' });

/** An event's `id:`: a step's seq, or `after_seq.index` for a text_delta. */
const RUN_EVENT_ID = /^\d{1,6}(\.\d{1,4})?$/;

/** Where an event falls in the stream, as one number that orders the steps and the text pieces between them. */
export const runEventPosition = (seq: number, index = 0): number => seq * (TEXT_DELTAS_PER_TURN_MAX + 1) + index;

/** The stream position of an event `id:` (RUN_EVENT_ID). */
export const positionOfRunEventId = (id: string): number => {
  const [seq, index = '0'] = id.split('.');
  return runEventPosition(Number(seq), Number(index));
};

/** Reconnect with `Last-Event-ID` (the last `id:` received), or `last_event_id` where a client cannot set headers. */
export const RunStreamQuery = RunIdQuery.extend({
  last_event_id: z.string().regex(RUN_EVENT_ID, { error: 'last_event_id is the id: of an event of this stream' }).optional(),
});

/**
 * The events of agents/command_stream: a step's `event:` is its type and `id:` its seq; between steps, the text of the
 * turn being written comes as `text_delta` events (`id:` `after_seq.index`); the last event is `run`.
 */
export const RUN_STREAM_EVENTS = {
  status: {
    schema: StatusStep,
    description: 'The run changed status (queued, running, requires_action while it waits for approval, then completed, failed or cancelled)',
  },
  text_delta: {
    schema: TextDelta,
    description:
      'Text as the model writes it, a piece about every 100 ms; `id:` is `after_seq.index`. The pieces after a step join to the text of the `text` event that follows them; a turn cut short (its runner replaced) has pieces and no `text` event, so drop them when another step comes',
  },
  text: { schema: TextStep, description: 'What the model wrote in one turn, whole (the joined text_delta pieces before it), with that turn’s usage' },
  tool_call: { schema: ToolCallStep, description: 'A tool call with its redacted arguments, its result or error and its duration' },
  approval_requested: {
    schema: ApprovalRequestedStep,
    description: 'The run waits for approval of an action (autonomy `confirm`); the stream stays open while it waits',
  },
  approval_answered: { schema: ApprovalAnsweredStep, description: 'The action was approved or rejected' },
  link_removed: {
    schema: LinkRemovedStep,
    description: 'A link the model wrote that no retrieved passage or page of the agent’s own site gave, taken out of the text',
  },
  run: { schema: Run, description: 'The finished run (as agents/command_status answers it, without its steps); the stream then closes' },
} as const;

export type RunStreamEventName = keyof typeof RUN_STREAM_EVENTS;

export const RUN_STREAM_DESCRIPTION = [
  'Server-Sent Events (text/event-stream). Each event has `event:` (its name), `id:` (a step’s seq, or `after_seq.index` for a text piece; in stream order) and `data:` (JSON).',
  'Reconnect with the `Last-Event-ID` header to get exactly the events after it. A finished run streams its whole history and closes.',
  'A comment line `: keep-alive` comes every 15 s. An unknown run or another workspace’s run is 404 RUN_NOT_FOUND before any event.',
  'Events:',
  ...Object.entries(RUN_STREAM_EVENTS).map(([name, event]) => `- \`${name}\`: ${event.description}`),
].join('\n');
