// What the store's parts share: the transcript's message, and the store's core (its signals and helpers) each part
// is given.
import type { ChatStreamEvents, RatingValue } from '@service/shared/widget-protocol';
import type { Signal } from '@preact/signals';
import type { WidgetConfig } from '../core/config';
import type { ChatBus, HandoffState, InboundEvents, Locale, Marker } from '../core/event-bus';
import type { StringKey } from '../core/locale';
import type { EmailForm } from './email-form';
import type * as Rich from './rich-text';

export interface ChatMessage {
  id: string;
  /** The visitor, the agent, a teammate (people answer: `author` is their name), or a change of hands ("Ana joined"). */
  role: 'user' | 'bot' | 'teammate' | 'event';
  text: string;
  author?: string;
  done: boolean;
  error?: boolean;
  /** A reply the visitor stopped: `text` is what was written until then. */
  stopped?: boolean;
  /** When it was written (ms since the epoch), shown on hover. */
  at?: number;
  /** A page the model asked to open that needs the visitor's click (off-site or destructive-looking). */
  offer?: Marker;
  /** An action waiting for the visitor's Confirm or Decline (the text is its summary). */
  confirm?: ChatStreamEvents['confirm'];
  /** The agent's answer as the server stored it (the `done` event's messageId): what the visitor may rate. */
  answerId?: string;
  /** The visitor's rating of this answer, once sent. */
  rating?: RatingValue;
}

/** What the store keeps of the conversation besides its messages and the panel's state (store-persistence.ts). */
export interface Conversation {
  conversationId: string;
  visitorId: string;
  /** The host's system prompts and context (its `system` and `setContext` commands). */
  system: string[];
  data: Record<string, unknown>;
  teaserSeen: boolean;
  /** Once people were asked for: the last live entry shown (the live stream resumes after it). */
  liveAfter?: number;
}

export interface StoreCore {
  bus: ChatBus;
  config: Signal<WidgetConfig>;
  open: Signal<boolean>;
  messages: Signal<ChatMessage[]>;
  streaming: Signal<boolean>;
  announcement: Signal<string>;
  /** The conversation as the tab keeps it (its id, the host's system prompts and context, …). */
  conversation: Conversation;
  /** The host's signed-in visitor (never stored: the host identifies them on every page). */
  identity?: InboundEvents['identify'];
  fetchApi: typeof fetch;
  locale(): Locale;
  agentName(): string;
  t(key: StringKey, values?: Record<string, string | number>): string;
  persist(): void;
  update(id: string, change: Partial<ChatMessage>): void;
  /** A completed bot message: tell the host page (with its markers) and screen readers. */
  delivered(text: string, rich: typeof Rich): void;
  /** A reply that failed: its message says why (and screen readers hear it). */
  failed(id: string, key: StringKey): void;
  chatUrl(): string;
  /** The visitor's conversation as the chunks that call the chat's sibling paths (live, rating) address it. */
  connection(): { chatUrl: string; conversationId: string; visitorId: string; fetch: typeof fetch; identity: InboundEvents['identify'] | undefined };
}

/** The conversation with people (store-people.ts): what the panel shows of it, and the live stream followed. */
export interface PeopleState {
  /** Who answers once people were asked for (null: the agent, as at the start). */
  people: Signal<HandoffState | null>;
  /** A teammate typing (their name), shown until their message or the signal's end. */
  teammateTyping: Signal<string | null>;
  /** Nobody was available and the agent asked for an e-mail address: the panel offers a field for it. */
  emailWanted: Signal<boolean>;
  /** The e-mail field, a chunk of its own loaded when an address is first asked for (the first open stays light). */
  emailForm: Signal<typeof EmailForm | null>;
  /** Stops the live stream; set while it is followed. */
  stopLive?: (() => void) | undefined;
  /** Follows people's messages from the conversation's live stream (once it was with people: also after a reload). */
  follow(): void;
}

export const newId = () => crypto.randomUUID();
export const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
