import * as z from 'zod';
import type { EndpointContract } from './contract';
import { isoDateTime, limitParam, text, uuid } from './primitives';
import { MailOfMessage } from './mail-messages';
import {
  AVAILABILITY_LIMITS,
  AVAILABILITY_MODES,
  CONVERSATION_CHANNELS,
  CONVERSATION_EVENTS,
  CONVERSATION_HANDLERS,
  CONVERSATION_LIST_STATES,
  HANDOFF_REASONS,
  LIVE_LIMITS,
  PREVIEW_ROLES,
  TRANSCRIPT_ROLES,
  WEEKDAYS,
  type LiveMessage,
} from '../live-conversation';

/**
 * The widget conversations of an agent (the dashboard's Conversations screen, the inbox) and people in them (issue 29):
 * a teammate claims a conversation, replies, writes internal notes, hands it back to the agent or closes it, and
 * follows it live (conversations/stream). Spread into ENDPOINTS. The shapes the widget and the dashboard share without
 * zod are in `../live-conversation.ts`.
 */

const Teammate = z
  .object({ id: z.string(), name: z.string() })
  .meta({ id: 'Teammate', description: 'A teammate (a member of the workspace) by id and display name' });

export const ConversationSummary = z
  .object({
    id: z.string(),
    agent_id: z.uuid(),
    started_at: isoDateTime,
    last_message_at: isoDateTime,
    messages: z.number().int().meta({ description: 'How many messages the conversation has' }),
    visitor: z.object({ id: z.string(), verified_user_id: z.string().nullable() }),
    locale: z.string(),
    channel: z.enum(CONVERSATION_CHANNELS).meta({ description: '`widget`: the customer writes in the chat widget; `email`: by e-mail (docs/email.md)' }),
    email: z
      .object({
        address: z.string().meta({ description: "The customer's address (the From: of their first mail)" }),
        subject: z.string().meta({ description: 'The subject of their first mail' }),
      })
      .nullable()
      .meta({ description: 'An e-mail conversation: the customer’s address and the subject; null for the widget' }),
    handler: z.enum(CONVERSATION_HANDLERS).meta({ description: '`agent`: the agent answers; `people`: teammates answer (the agent says nothing); `closed`' }),
    assignee: Teammate.nullable().meta({
      description: 'The teammate who claimed it; null while it waits for one (handler `people`) or when the agent handles it',
    }),
    handoff: z
      .object({
        reason: z.enum(HANDOFF_REASONS).meta({
          description:
            '`visitor`: the visitor asked (the Talk to a person action); `agent`: the agent called its `handoff` tool; `keyword`: a handoff keyword of the agent; `teammate`: a teammate took it over',
        }),
        summary: z.string().meta({ description: "The agent's short summary for the teammate (empty when none was written)" }),
        requested_at: isoDateTime,
      })
      .nullable()
      .meta({ description: 'The latest passing to people; null if it never passed' }),
    page: z.string().nullable().meta({
      description:
        'The page the widget was on (an http(s) address the widget reported) when the conversation passed to people, else when it started; null: none reported',
    }),
    visitor_email: z.string().nullable().meta({
      description: 'The address the visitor left when nobody was available (null: none); teammates’ replies reach it by e-mail while `email_replies` is true',
    }),
    unread: z.number().int().nullable().meta({
      description:
        'Transcript entries the signed-in teammate has not read yet (after their read marker, conversations/read); null for an API key, which reads for nobody',
    }),
    email_replies: z.boolean().meta({
      description:
        'true: the conversation waits for e-mail (the visitor left an address and has not written in the widget since); a reply is also sent to `visitor_email`',
    }),
    preview: z
      .object({
        role: z.enum(PREVIEW_ROLES).meta({ description: 'Whose message: `user` the visitor, `assistant` the agent, `teammate` a teammate' }),
        text: z.string().meta({
          description: `Its first line as plain text (never markup): the agent's markers as their labels, no control or invisible characters, at most ${LIVE_LIMITS.previewChars} characters (cut with …)`,
        }),
        at: isoDateTime,
      })
      .nullable()
      .meta({
        description:
          'The last message of the visitor, the agent or a teammate (notes and events are not previewed), for a list to triage by; null before the first',
      }),
  })
  .meta({ id: 'ConversationSummary' });

export const ConversationMessage = z
  .object({
    seq: z.number().int().meta({ description: "The entry's place in the transcript (the live stream's event id)" }),
    role: z.enum(TRANSCRIPT_ROLES).meta({
      description:
        '`user` the visitor, `assistant` the agent, `teammate` a teammate, `note` an internal note (never shown to the visitor), `event` a change of hands',
    }),
    text: z.string().meta({ description: 'Plain text, never markup' }),
    at: isoDateTime,
    author: Teammate.nullable().meta({ description: 'The teammate of a `teammate`, `note` or `event` entry' }),
    event: z.enum(CONVERSATION_EVENTS).nullable().meta({ description: 'What an `event` entry records' }),
    stopped: z.boolean().optional().meta({ description: 'true: the visitor stopped this reply while it was written; `text` is what was written until then' }),
    mail: MailOfMessage.optional().meta({
      description: 'conversations/get only: the inbound mail this entry was made of (the customer’s entry, or the note of a held mail)',
    }),
  })
  // The same entry as the zod-free LiveMessage the widget and the dashboard read (plus `stopped`): the type check fails if they part.
  .meta({ id: 'ConversationMessage' }) satisfies z.ZodType<LiveMessage & { stopped?: boolean | undefined }>;

export const ConversationsQuery = z.object({
  agent_id: uuid('agent_id'),
  limit: limitParam,
  cursor: z.string().max(500).optional().meta({ description: 'next_cursor of the previous page' }),
  state: z.enum(CONVERSATION_LIST_STATES).default('all').meta({
    description:
      'The inbox’s tabs: `waiting` people have it and nobody claimed it; `mine` the signed-in teammate claimed it (a dashboard session; an API key gets 400 VALIDATION_ERROR); `closed`; `all` every one (the default). A filtered page may hold fewer than `limit` and still have a next_cursor.',
  }),
});
const conversationId = z.string({ error: 'conversation_id is required' }).min(1).max(200);
export const ConversationQuery = z.object({ conversation_id: conversationId });
export const ConversationIdBody = z.object({ conversation_id: conversationId }).strict();
export const ConversationTextBody = z.object({ conversation_id: conversationId, text: text(LIVE_LIMITS.messageChars) }).strict();
export const ConversationReadBody = z
  .object({
    conversation_id: conversationId,
    seq: z.number().int().min(0).max(999_999).meta({ description: 'The last transcript entry the teammate was shown (its seq); a marker never moves back' }),
  })
  .strict();
export const ConversationAssignBody = z
  .object({
    conversation_id: conversationId,
    user_id: z
      .string()
      .regex(/^usr_[0-9A-Za-z]{8,64}$/, { error: 'user_id looks like usr_…' })
      .optional()
      .meta({ description: 'The member to assign it to; omitted: the caller claims it (a dashboard session; an API key must name a member)' }),
  })
  .strict();
export const ConversationStreamQuery = z.object({
  conversation_id: conversationId,
  last_event_id: z
    .string()
    .regex(/^\d{1,9}$/, { error: 'last_event_id is the id of an event this stream sent' })
    .optional()
    .meta({ description: 'Resume after this event (the Last-Event-ID header does the same)' }),
});

export const InboxStreamQuery = z.object({
  agent_id: uuid('agent_id').optional().meta({ description: 'Only this agent’s conversations (default: every agent of the workspace)' }),
  last_event_id: z
    .string()
    .regex(/^\d{1,12}$/, { error: 'last_event_id is the id of an event this stream sent' })
    .optional()
    .meta({ description: 'Resume after this event (the Last-Event-ID header does the same)' }),
});

const clock = /^([01]\d|2[0-3]):[0-5]\d$|^24:00$/;
const BusinessInterval = z
  .object({
    day: z.enum(WEEKDAYS),
    from: z.string().regex(clock, { error: 'from is a time HH:MM (24 h)' }),
    to: z.string().regex(clock, { error: 'to is a time HH:MM (24 h, 24:00 for midnight)' }),
  })
  .strict()
  .refine((interval) => interval.from < interval.to, { error: 'to must be after from', path: ['to'] })
  .meta({ id: 'BusinessInterval', description: 'Teammates are available on `day` from `from` to `to`, in the workspace’s time zone' });

/** An IANA time zone name the platform's Intl knows (Europe/Istanbul, UTC). */
const timeZone = z
  .string()
  .min(1)
  .max(64)
  .refine(
    (zone) => {
      try {
        new Intl.DateTimeFormat('en', { timeZone: zone });
        return true;
      } catch {
        return false;
      }
    },
    { error: 'time_zone is an IANA time zone name such as Europe/Istanbul' },
  );

export const AvailabilitySettings = z
  .object({
    mode: z.enum(AVAILABILITY_MODES).meta({ description: '`auto`: available during `hours`; `away`: nobody is available (the e-mail fallback at once)' }),
    time_zone: timeZone,
    hours: z.array(BusinessInterval).max(AVAILABILITY_LIMITS.intervals).nullable().meta({ description: 'The weekly business hours; null: around the clock' }),
    claim_timeout_minutes: z
      .number()
      .int()
      .min(1)
      .max(AVAILABILITY_LIMITS.claimTimeoutMinutes)
      .nullable()
      .meta({ description: 'A conversation no teammate claimed within this many minutes gets the e-mail fallback; null: it waits without a limit' }),
  })
  .strict()
  .meta({ id: 'AvailabilitySettings' });
const availabilityAnswer = z.object({
  availability: AvailabilitySettings,
  available_now: z.boolean().meta({ description: 'Whether a handoff now would find teammates available' }),
});

const conversationChange = z.object({ conversation: ConversationSummary });
const conversationEntry = z.object({ conversation: ConversationSummary, message: ConversationMessage });

export const CONVERSATION_STREAM_EVENTS = {
  state: {
    schema: z.object({ handler: z.enum(CONVERSATION_HANDLERS), assignee: Teammate.nullable() }),
    description: 'Who handles the conversation: first on every connection (no `id:`), then whenever it changes',
  },
  message: {
    schema: ConversationMessage,
    description: 'A transcript entry (notes included), `id:` its seq; in order, none twice, none missed after Last-Event-ID',
  },
  typing: {
    schema: z.object({ name: z.string().nullable() }),
    description: 'A teammate is typing (no `id:`); it shows for a few seconds unless a message comes',
  },
} as const;

export const CONVERSATION_STREAM_DESCRIPTION = [
  'Server-Sent Events (text/event-stream). `message` events carry `id:` (the entry’s seq); reconnect with the `Last-Event-ID` header to get exactly the entries after it.',
  `A comment line \`: keep-alive\` comes every ${LIVE_LIMITS.keepAliveMs / 1000} s; a connection ends after ${LIVE_LIMITS.maxStreamMs / 60_000} minutes (reconnect).`,
  'An unknown conversation or another workspace’s is 404 CONVERSATION_NOT_FOUND before any event.',
  'Events:',
  ...Object.entries(CONVERSATION_STREAM_EVENTS).map(([name, event]) => `- \`${name}\`: ${event.description}`),
].join('\n');

export const INBOX_STREAM_EVENTS = {
  ready: {
    schema: z.object({ seq: z.number().int() }),
    description:
      'Read the list now (conversations/list): the events after it are the changes since. First on a connection without Last-Event-ID, and instead of a resume the stream can no longer make (the changes after it are older than a day)',
  },
  conversation: {
    schema: ConversationSummary,
    description:
      'A conversation is new or changed (an entry, a change of hands, the caller’s own read marker): its summary as conversations/list answers it now, `unread` for the caller; once a batch of changes, at its last one',
  },
  removed: {
    schema: z.object({ conversation_id: z.string(), agent_id: z.string().nullable() }),
    description: 'A conversation was erased (visitors/erase, or retention): it leaves the lists',
  },
} as const;

export const INBOX_STREAM_DESCRIPTION = [
  'Server-Sent Events (text/event-stream), one stream for the workspace’s whole inbox (all its agents, or `agent_id`’s). Every event carries `id:`; reconnect with the `Last-Event-ID` header to get exactly the changes after it, in order, none twice.',
  `A comment line \`: keep-alive\` comes every ${LIVE_LIMITS.keepAliveMs / 1000} s; a connection ends after ${LIVE_LIMITS.maxStreamMs / 60_000} minutes (reconnect).`,
  'An `agent_id` of no agent of the workspace is 404 AGENT_NOT_FOUND before any event.',
  'Events:',
  ...Object.entries(INBOX_STREAM_EVENTS).map(([name, event]) => `- \`${name}\`: ${event.description}`),
].join('\n');

export const CONVERSATION_ENDPOINTS = {
  conversationsList: {
    path: 'conversations/list',
    method: 'GET',
    summary: "An agent's widget conversations, most recently started first",
    query: ConversationsQuery,
    data: z.object({ conversations: z.array(ConversationSummary), next_cursor: z.string().nullable() }),
    status: 200,
    access: 'read',
  },
  conversationsGet: {
    path: 'conversations/get',
    method: 'GET',
    summary: 'One conversation with its transcript, oldest message first',
    query: ConversationQuery,
    data: z.object({ conversation: ConversationSummary, messages: z.array(ConversationMessage) }),
    status: 200,
    access: 'read',
  },
  conversationsReply: {
    path: 'conversations/reply',
    method: 'POST',
    summary:
      "A teammate's message to the visitor, stored before this answers and pushed to the visitor's widget; a conversation the agent handles passes to the caller first (409 CONVERSATION_CLOSED when closed, 404 CONVERSATION_NOT_FOUND when unknown)",
    body: ConversationTextBody,
    data: conversationEntry,
    status: 201,
    idempotent: true,
    access: 'conversations:reply',
  },
  conversationsNote: {
    path: 'conversations/note',
    method: 'POST',
    summary: 'An internal note for teammates: in the transcript and the teammates’ stream, never shown to the visitor',
    body: ConversationTextBody,
    data: conversationEntry,
    status: 201,
    idempotent: true,
    access: 'conversations:reply',
  },
  conversationsAssign: {
    path: 'conversations/assign',
    method: 'POST',
    summary:
      'Claim the conversation (or assign it to a member by user_id): people handle it from now on and the visitor sees "<name> joined"; the agent stops answering',
    body: ConversationAssignBody,
    data: conversationChange,
    status: 200,
    access: 'conversations:reply',
  },
  conversationsHandback: {
    path: 'conversations/handback',
    method: 'POST',
    summary: 'Hand the conversation back to the agent, which answers the visitor’s next message',
    body: ConversationIdBody,
    data: conversationChange,
    status: 200,
    access: 'conversations:reply',
  },
  conversationsClose: {
    path: 'conversations/close',
    method: 'POST',
    summary: 'Close the conversation: nobody answers it any more (conversation.closed is sent); closing a closed one answers it unchanged',
    body: ConversationIdBody,
    data: conversationChange,
    status: 200,
    access: 'conversations:reply',
  },
  conversationsReopen: {
    path: 'conversations/reopen',
    method: 'POST',
    summary:
      'Reopen a closed conversation: it waits for a teammate again (handler `people`, no assignee) and the visitor sees "<name> reopened the conversation"; reopening one that is not closed answers it unchanged',
    body: ConversationIdBody,
    data: conversationChange,
    status: 200,
    access: 'conversations:reply',
  },
  conversationsRead: {
    path: 'conversations/read',
    method: 'POST',
    summary:
      "The signed-in teammate's read marker: they were shown the transcript up to `seq` (the inbox sets it as it shows a conversation); unread counts are counted after it. An API key reads for nobody: 400 VALIDATION_ERROR",
    body: ConversationReadBody,
    data: z.object({ conversation_id: z.string(), read_seq: z.number().int(), unread: z.number().int() }),
    status: 200,
    access: 'read',
  },
  conversationsTyping: {
    path: 'conversations/typing',
    method: 'POST',
    summary: "Tell the visitor the caller is typing (the widget's typing indicator shows for a few seconds)",
    body: ConversationIdBody,
    data: z.object({ typing_until: isoDateTime }),
    status: 200,
    access: 'conversations:reply',
  },
  conversationsAvailability: {
    path: 'conversations/availability',
    method: 'GET',
    summary: "The workspace's availability: business hours, the away switch and the claim timeout (never set: around the clock, no timeout)",
    data: availabilityAnswer,
    status: 200,
    access: 'read',
  },
  conversationsAvailabilitySet: {
    path: 'conversations/availability_set',
    method: 'POST',
    summary:
      'Set the workspace’s availability (owners and admins). A handoff when nobody is available (outside the hours, or away), or one no teammate claimed within the claim timeout, gets the e-mail fallback: the agent says so and asks the visitor for an address',
    body: AvailabilitySettings,
    data: availabilityAnswer,
    status: 200,
    access: 'manage',
  },
  conversationsStream: {
    path: 'conversations/stream',
    method: 'GET',
    summary: 'Follow a conversation live (teammates): its transcript entries and changes of hands as Server-Sent Events, resumable with Last-Event-ID',
    query: ConversationStreamQuery,
    data: conversationChange,
    status: 200,
    access: 'read',
    stream: { description: CONVERSATION_STREAM_DESCRIPTION, events: CONVERSATION_STREAM_EVENTS },
  },
  conversationsInboxStream: {
    path: 'conversations/inbox_stream',
    method: 'GET',
    summary:
      'Follow the inbox live (teammates): new conversations, new entries, changes of hands and the caller’s unread counts as Server-Sent Events, resumable with Last-Event-ID',
    query: InboxStreamQuery,
    data: z
      .object({ workspace_id: z.string(), agent_id: z.uuid().nullable(), reader_id: z.string().nullable() })
      .meta({ description: 'What the stream follows: the workspace, one agent (null: all), and whose unread counts (the signed-in teammate; null for a key)' }),
    status: 200,
    access: 'read',
    stream: { description: INBOX_STREAM_DESCRIPTION, events: INBOX_STREAM_EVENTS },
  },
} as const satisfies Record<string, EndpointContract>;
