// @service/chat-widget/react: thin React adapters over the same core. SSR-safe: nothing touches window or document
// until an effect runs in the browser. The widget UI (Preact) is imported only inside ChatWidget's effect, so it loads
// lazily as its own chunk, as with the script tag, and stays out of the host app's main bundle.
import { createElement, useEffect, useMemo, useRef } from 'react';
import type { KeyboardEvent, ReactNode } from 'react';
import { CircleHelp, MessageCircle } from 'lucide-react';
import { ChatEventBus, getBus } from '../core/event-bus';
import { handleMarkerClick } from '../core/navigate';
import { resolveLocale } from '../core/locale';
import { renderRich } from '../core/render-rich';
import { richCss } from '../core/rich-css';
import { overlayCss, runUiAction } from '../core/overlay';
import { adoptCss } from '../core/adopt-css';
import { runTrigger } from '../core/trigger';
import { triggerCss } from './trigger-css';
import type { ConfigOverrides } from '../core/config';
import type { ChatEvents, Locale, Marker, OutboundEventName } from '../core/event-bus';
import type { TriggerOptions } from '../core/trigger';
import type { CreateElement } from '../core/create-element';

export { ChatEventBus };
export type { ChatBus } from '../core/event-bus';
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
} from '../core/event-bus';

let documentStylesAdopted = false;
/** Styles for what the adapters render in the host document (triggers, rich text outside the widget). */
function useDocumentStyles(): void {
  useEffect(() => {
    if (documentStylesAdopted) return;
    documentStylesAdopted = true;
    adoptCss(document, richCss + triggerCss);
  }, []);
}

export interface ChatWidgetProps {
  agentId: string;
  config?: ConfigOverrides;
  /** API base URL; defaults to the page's origin. */
  apiUrl?: string;
}

/**
 * The floating widget. UI actions are drawn by ChatPointerOverlay, which the host layout renders beside it
 * (as in the spec's exports), so a page can also have the overlay without the widget.
 */
export function ChatWidget({ agentId, config, apiUrl }: ChatWidgetProps) {
  const host = useRef<HTMLDivElement>(null);
  const configRef = useRef(config);
  useEffect(() => {
    const bus = getBus();
    if (!host.current || bus.mounted) {
      if (bus.mounted) console.warn('[service-chat] a chat widget is already mounted on this page');
      return;
    }
    const element = host.current;
    let unmount: (() => void) | undefined;
    let cancelled = false;
    void import('../widget/mount').then(({ mountWidget }) => {
      if (cancelled) return;
      unmount = mountWidget({ host: element, agentId, apiUrl: apiUrl ?? location.origin, bus, config: configRef.current, pointerOverlay: false });
    });
    return () => {
      cancelled = true;
      unmount?.();
    };
  }, [agentId, apiUrl]);
  return createElement('div', { ref: host, 'data-service-chat': '' });
}

/** Subscribes to the bus's uiAction events and runs them in its own shadow-root overlay. */
export function ChatPointerOverlay() {
  useEffect(() => {
    const host = document.createElement('div');
    host.setAttribute('data-service-chat-overlay', '');
    document.body.append(host);
    const shadow = host.attachShadow({ mode: 'open' });
    adoptCss(shadow, `:host{all:initial;position:fixed;top:0;left:0;z-index:2147483647}${overlayCss}`);
    const unsubscribe = getBus().on('uiAction', (request) => void runUiAction(shadow, request));
    return () => {
      unsubscribe();
      host.remove();
    };
  }, []);
  return null;
}

export interface RichMessageRendererProps {
  text: string;
  /** Locale used for internal links when nobody handles `navigate`; defaults to the URL's first segment. */
  locale?: Locale;
}

/** Renders bot text with its markers as cards, links and action buttons; clicks emit the spec's events. */
export function RichMessageRenderer({ text, locale }: RichMessageRendererProps) {
  useDocumentStyles();
  const onMarker = (marker: Marker, event: Event) => handleMarkerClick(getBus(), marker, event, locale ?? resolveLocale({ pathname: location.pathname }));
  const h = createElement as unknown as CreateElement<ReactNode>;
  return createElement('span', { className: 'scw-rich' }, ...renderRich(h, text, { onMarker }));
}

export interface ChatTriggerProps extends TriggerOptions {
  variant?: 'icon' | 'link' | 'button' | 'custom';
  label?: string;
  size?: 'sm' | 'md' | 'lg';
  color?: 'blue' | 'gray' | 'white' | 'inherit';
  tooltip?: string;
  children?: ReactNode;
}

/** Opens the chat from anywhere with hidden context, in one of the spec's four variants. */
export function ChatTrigger(props: ChatTriggerProps) {
  useDocumentStyles();
  const { variant = 'icon', label = 'Learn more', size = 'md', color = 'blue', tooltip, children } = props;
  const onClick = () => void runTrigger(getBus(), props);
  if (variant === 'custom') {
    // A span the keyboard can reach and press as it would a button.
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'Enter' && event.key !== ' ') return;
      event.preventDefault();
      onClick();
    };
    return createElement('span', { className: 'scw-trigger-custom', role: 'button', tabIndex: 0, onClick, onKeyDown, title: tooltip }, children);
  }
  const palette = color === 'inherit' ? '' : ` scw-${color}`;
  const icon = createElement(variant === 'button' ? MessageCircle : CircleHelp, { 'aria-hidden': true });
  return createElement(
    'button',
    {
      type: 'button',
      className: `scw-trigger scw-trigger-${variant}${variant === 'icon' ? ` scw-${size}` : ''}${palette}`,
      onClick,
      title: tooltip,
      'aria-label': variant === 'icon' ? (tooltip ?? label) : undefined,
    },
    icon,
    variant === 'icon' ? null : label,
  );
}

/** Typed helpers for the inbound commands, each mapped to the event of the same name. */
export function useChatWidget() {
  return useMemo(() => {
    const bus = ChatEventBus;
    return {
      bus,
      open: () => bus.emit('open'),
      close: () => bus.emit('close'),
      toggle: () => bus.emit('toggle'),
      send: (text: string) => bus.emit('send', { text }),
      botMessage: (text: string) => bus.emit('botMessage', { text }),
      system: (prompt: string) => bus.emit('system', { prompt }),
      clear: () => bus.emit('clear'),
      highlight: (duration?: number) => bus.emit('highlight', { duration }),
      badge: (count: number | null) => bus.emit('badge', { count }),
      nudge: (text: string, duration?: number) => bus.emit('nudge', { text, duration }),
      setContext: (context: Record<string, unknown>) => bus.emit('setContext', context),
      setLocale: (locale: Locale) => bus.emit('setLocale', { locale }),
      /** A signed-in visitor: `userHash` is the hex HMAC-SHA256 of `userId` your server computed with the agent's identity secret. */
      identify: (userId: string, userHash: string) => bus.emit('identify', { userId, userHash }),
      /** A signed-in visitor by the JWT your server signed (`sub` the user id, `exp` at most 24 h away). */
      identifyWithToken: (userToken: string) => bus.emit('identify', { userToken }),
    };
  }, []);
}

/** Subscribe to an outbound event for the component's lifetime; the latest handler is always the one called. */
export function useOnChatEvent<N extends OutboundEventName>(name: N, handler: (payload: ChatEvents[N]) => void): void {
  const latest = useRef(handler);
  latest.current = handler;
  useEffect(() => getBus().on(name, (payload) => latest.current(payload)), [name]);
}
