// The event contract of the spec: inbound commands (site -> widget) and outbound events (widget -> site).

export type Locale = 'en' | 'tr';
export type UiActionName = 'pointer' | 'highlight' | 'scroll';

export interface UiActionRequest {
  action: UiActionName;
  target: string;
}

export interface InboundEvents {
  open: undefined;
  close: undefined;
  toggle: undefined;
  send: { text: string; openFirst?: boolean };
  botMessage: { text: string; openFirst?: boolean };
  system: { prompt: string };
  clear: undefined;
  setContext: Record<string, unknown>;
  setLocale: { locale: Locale };
  highlight: { duration?: number } | undefined;
  badge: { count: number | null };
  nudge: { text: string; duration?: number };
  uiAction: UiActionRequest;
  /** A signed-in visitor, as the host's server signed them: userHash = hex HMAC-SHA256 of userId with the agent's identity secret. */
  identify: VisitorIdentity;
}

export interface VisitorIdentity {
  userId: string;
  userHash: string;
}

export type MarkerType = 'Skill' | 'Agent' | 'Page' | 'Link' | 'Action';

/** One parsed `[Type:label|value|extra]` marker, as carried by the botResponse event. */
export interface Marker {
  type: MarkerType;
  label: string;
  value: string;
  extra?: string;
  raw: string;
}

export interface OutboundEvents {
  navigate: { href: string };
  uiAction: UiActionRequest;
  widgetOpened: undefined;
  widgetClosed: undefined;
  userMessage: { text: string };
  botResponse: { raw: string; markers: Marker[] };
}

export type ChatEvents = InboundEvents & OutboundEvents;
export type ChatEventName = keyof ChatEvents;
export type InboundEventName = keyof InboundEvents;
export type OutboundEventName = keyof OutboundEvents;

export const INBOUND_EVENTS: readonly InboundEventName[] = [
  'open', 'close', 'toggle', 'send', 'botMessage', 'system', 'clear',
  'setContext', 'setLocale', 'highlight', 'badge', 'nudge', 'uiAction', 'identify',
];
