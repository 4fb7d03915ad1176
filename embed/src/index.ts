// @service/chat-widget: the framework-agnostic core.
export { createBus, getBus, ChatEventBus } from './core/event-bus';
export type { ChatBus, ChatEventHandler } from './core/event-bus';
// The event contract (types only).
export type {
  Locale,
  UiActionName,
  UiActionRequest,
  InboundEvents,
  VisitorIdentity,
  MarkerType,
  Marker,
  OutboundEvents,
  ChatEvents,
  ChatEventName,
  InboundEventName,
  OutboundEventName,
  INBOUND_EVENTS,
} from './core/event-bus';
export { parseMarkers, parseRichText, skillIcon, markerIntent, safeHref } from './core/markers';
export type { RichSegment, MarkerIntent, IconName } from './core/markers';
export { renderRich } from './core/render-rich';
export { runUiAction, findTarget, POINTER_PHASES, HIGHLIGHT_MS } from './core/overlay';
export { runTrigger, triggerOptionsFromElement, installDeclarativeTriggers, DEFAULT_TRIGGER_DELAY } from './core/trigger';
export type { TriggerOptions } from './core/trigger';
export { resolveNavigation } from './core/navigate';
export { resolveLocale, STRINGS } from './core/locale';
export { DEFAULT_CONFIG, isUuid, loadWidgetConfig, normalizeConfig } from './core/config';
export type { WidgetConfig, ConfigOverrides } from './core/config';
export type { ChatRequest } from './core/chat-client';
export { mountWidget } from './widget/mount';
export type { MountOptions } from './widget/mount';
