// People in the conversation (issue 29), defined once and free of zod: the widget, the dashboard and the server read
// it. Who handles a widget conversation, the entries of its transcript, and the events of its two live streams (the
// visitor's and the teammates'), both Server-Sent Events resumable with Last-Event-ID.

/** Who handles the conversation: the agent answers, people answer (a teammate claimed it, or it waits for one), or nobody any more. */
export const CONVERSATION_HANDLERS = ['agent', 'people', 'closed'] as const;
/** Where a conversation's customer writes from: the chat widget, or e-mail (docs/email.md). */
export const CONVERSATION_CHANNELS = ['widget', 'email'] as const;
export type ConversationChannel = (typeof CONVERSATION_CHANNELS)[number];
/** An e-mail conversation's customer address and the subject of its first mail. */
export interface ConversationEmail {
  address: string;
  subject: string;
}
export type ConversationHandler = (typeof CONVERSATION_HANDLERS)[number];

/** The inbox's tabs (conversations/list `state`): waiting for a teammate, claimed by the caller, every one, closed. */
export const CONVERSATION_LIST_STATES = ['waiting', 'mine', 'all', 'closed'] as const;
export type ConversationListState = (typeof CONVERSATION_LIST_STATES)[number];

/** Why the conversation passed to people. */
export const HANDOFF_REASONS = ['visitor', 'agent', 'keyword', 'teammate'] as const;
export type HandoffReason = (typeof HANDOFF_REASONS)[number];

/** What a transcript entry is: the visitor's, the agent's, a teammate's message, a teammate's internal note, or an event. */
export const TRANSCRIPT_ROLES = ['user', 'assistant', 'teammate', 'note', 'event'] as const;
export type TranscriptRole = (typeof TRANSCRIPT_ROLES)[number];
/** What the visitor ever sees: never an internal note. */
export const VISITOR_ROLES = ['user', 'assistant', 'teammate', 'event'] as const satisfies readonly TranscriptRole[];

/**
 * The events a transcript records: the agent asked for a person, a teammate joined (claimed or was assigned), handed
 * back, closed, reopened; `email_requested`: nobody was available, and the visitor was asked for an e-mail address
 * (its text is the agent's fixed message in the conversation's language, shown to the visitor as the agent's).
 */
export const CONVERSATION_EVENTS = ['handoff_requested', 'joined', 'handed_back', 'closed', 'reopened', 'email_requested'] as const;
export type ConversationEventType = (typeof CONVERSATION_EVENTS)[number];

/** A teammate as the visitor sees them: their display name only. */
export interface Teammate {
  id: string;
  name: string;
}

/**
 * One entry of a conversation's transcript. `seq` orders the transcript and is the stream's event id; `text` is data,
 * never markup. An `event` entry names its `event` and, for `joined`, `handed_back` and `closed`, the teammate.
 */
export interface LiveMessage {
  seq: number;
  role: TranscriptRole;
  text: string;
  at: string;
  author: Teammate | null;
  event: ConversationEventType | null;
}

/** Who handles the conversation now; `assignee` null with `people` means it waits for a teammate to claim it. */
export interface LiveState {
  handler: ConversationHandler;
  assignee: Teammate | null;
  /**
   * Present once nobody was available: `requested` the visitor was asked for an e-mail address (the widget offers a
   * field for it), `given` they left one (teammates' replies reach them by e-mail while they are away).
   */
  email?: 'requested' | 'given';
}

/**
 * The events of a live stream, by SSE event name:
 * - `state` (no `id:`): who handles it, sent first on every connection and whenever it changes;
 * - `message` (`id:` its seq): a transcript entry, in order, none twice, none missed after Last-Event-ID;
 * - `typing` (no `id:`): a teammate is typing (conversations/typing); it shows for `typingMs` unless a message comes.
 * The visitor's stream never carries a `note`. A comment line `: keep-alive` comes every `keepAliveMs`.
 */
export interface LiveStreamEvents {
  state: LiveState;
  message: LiveMessage;
  typing: { name: string | null };
}

export const LIVE_LIMITS = {
  /** Characters of one teammate message or note. */
  messageChars: 4000,
  /** How long one typing signal shows. */
  typingMs: 6_000,
  /** A comment line at least this often keeps proxies from closing a quiet stream. */
  keepAliveMs: 15_000,
  /** One connection lasts at most this long; the client reconnects with Last-Event-ID and misses nothing. */
  maxStreamMs: 15 * 60_000,
  /** Keywords a company may set per agent that hand the conversation to people at once. */
  handoffKeywords: 20,
  handoffKeywordChars: 60,
  /** The agent's summary for the teammate. */
  summaryChars: 1000,
  /** An e-mail address a visitor leaves (RFC 5321's limit). */
  emailChars: 254,
  /** The page the widget is on, as stored on the conversation. */
  pageUrlChars: 2000,
  /** The inbox list's preview of a conversation's last message (its first line). */
  previewChars: 140,
} as const;

/** The entries a conversation's preview shows (the last of them): what the visitor and the conversation said, never a note or an event. */
export const PREVIEW_ROLES = ['user', 'assistant', 'teammate'] as const satisfies readonly TranscriptRole[];
export type PreviewRole = (typeof PREVIEW_ROLES)[number];

/** The agent's rich markers (`[Page:Pricing|/pricing]`): a reader who is not the widget shows their label (group 1). */
export const MARKER_LABEL = /\[(?:Skill|Agent|Page|Link|Action):([^|\]\n]+)\|[^\]\n]*\]/g;
// Control characters, bidi overrides and invisible characters: a preview line is plain, visible text.
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const UNSEEN = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u00ad\u061c\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u206f\ufeff]/g;

/**
 * The first line of a message as the inbox list previews it: markers as their labels, no invisible characters, spaces
 * collapsed, at most `previewChars` characters (cut with "…"). Plain text: whoever shows it renders it as text.
 */
export function previewLine(text: string): string {
  const line =
    text
      .replace(MARKER_LABEL, '$1')
      .replace(UNSEEN, '')
      .split(/\r?\n|\r/)
      .map((part) => part.replace(/\s+/g, ' ').trim())
      .find(Boolean) ?? '';
  const chars = [...line];
  return chars.length > LIVE_LIMITS.previewChars
    ? `${chars
        .slice(0, LIVE_LIMITS.previewChars - 1)
        .join('')
        .trimEnd()}…`
    : line;
}

/** A workspace's availability switch: `auto` follows the business hours, `away` nobody is available. */
export const AVAILABILITY_MODES = ['auto', 'away'] as const;
export type AvailabilityMode = (typeof AVAILABILITY_MODES)[number];
/** The days of business hours, Monday first. */
export const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
export type Weekday = (typeof WEEKDAYS)[number];

/** One interval of business hours: `from` to `to` (HH:MM, 24 h, `to` after `from`) on `day`, in the workspace's time zone. */
export interface BusinessInterval {
  day: Weekday;
  from: string;
  to: string;
}

/**
 * When a workspace's teammates are available (conversations/availability): `hours` null means around the clock;
 * `claim_timeout_minutes` null means a conversation waits for a teammate without a limit.
 */
export interface AvailabilitySettings {
  mode: AvailabilityMode;
  time_zone: string;
  hours: BusinessInterval[] | null;
  claim_timeout_minutes: number | null;
}

export const AVAILABILITY_LIMITS = { intervals: 21, claimTimeoutMinutes: 24 * 60 } as const;

/** Never set: always available, no claim timeout (what every workspace had before availability existed). */
export const DEFAULT_AVAILABILITY: AvailabilitySettings = { mode: 'auto', time_zone: 'UTC', hours: null, claim_timeout_minutes: null };

/** The SSE `id:` of a transcript entry, and back (an id that is not one gives undefined). */
export const liveEventId = (seq: number): string => String(seq);
export function liveSeqOf(id: string | undefined): number | undefined {
  if (id === undefined || !/^\d{1,9}$/.test(id.trim())) return undefined;
  return Number(id.trim());
}
