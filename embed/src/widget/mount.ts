import { h, render } from 'preact';
import { App } from './App';
import { createStore } from './store';
import { widgetCss } from './widget-css';
import { adoptCss } from '../core/adopt-css';
import { pinHost } from '../core/host';
import type { ChatBus } from '../core/event-bus';
import type { ConfigOverrides } from '../core/config';
import type { UiActionRequest } from '../core/event-bus';
import type * as Overlay from '../core/overlay';
import type * as Rich from './rich-text';
import type * as Live from './live';

export interface MountOptions {
  /** The host element; the widget attaches (or reuses) its open shadow root. */
  host: HTMLElement;
  agentId: string;
  /** Base URL of the API, e.g. the loader script's origin. */
  apiUrl: string;
  bus: ChatBus;
  config?: ConfigOverrides;
  /** Run UI actions in the widget's own overlay (default true; the React adapter leaves them to ChatPointerOverlay). */
  pointerOverlay?: boolean;
  /** Handle `[data-chat-trigger]` clicks on the page (default true). */
  declarativeTriggers?: boolean;
  /** Put the host back if a single-page app's re-render removes it (the loader sets this). */
  keepAttached?: boolean;
  /** The FAB the loader painted before the widget loaded: replaced (keeping focus), and the FAB shows at once. */
  staticFab?: HTMLElement;
  /**
   * The fetch the widget calls its API with; the loader passes the one it found when it ran, so a host page that
   * later replaces `window.fetch` (a polyfill without streams, a wrapper) leaves the chat as it was.
   */
  fetch?: typeof fetch;
}

/**
 * Follows the site's `dark` class, live: on any ancestor of the host, or on <body> (the script tag's host is a child of
 * <html>, so a site that themes <body> is no ancestor of it, yet it is the most common switch).
 */
function watchDarkClass(host: HTMLElement, onChange: (dark: boolean) => void): () => void {
  const check = () => onChange(host.parentElement?.closest('.dark') != null || document.body?.classList.contains('dark') === true);
  const observer = new MutationObserver(check);
  observer.observe(document.documentElement, { attributes: true, attributeFilter: ['class'], subtree: true });
  check();
  return () => observer.disconnect();
}

/** Keeps the full-screen mobile panel above the on-screen keyboard by tracking the visual viewport. */
function trackVisualViewport(host: HTMLElement): () => void {
  const viewport = window.visualViewport;
  if (!viewport) return () => undefined;
  const update = () => {
    host.style.setProperty('--scw-vv-height', `${viewport.height}px`);
    host.style.setProperty('--scw-vv-top', `${viewport.offsetTop}px`);
  };
  update();
  viewport.addEventListener('resize', update);
  viewport.addEventListener('scroll', update);
  return () => {
    viewport.removeEventListener('resize', update);
    viewport.removeEventListener('scroll', update);
  };
}

function keepPinned(host: HTMLElement): () => void {
  const observer = new MutationObserver(() => {
    if (!host.isConnected) pinHost(host);
  });
  observer.observe(document.documentElement, { childList: true });
  return () => observer.disconnect();
}

/** Runs UI actions in the pointer overlay, whose code (and styles) load with the first action: opening needs neither. */
function lazyOverlay(shadow: ShadowRoot): (request: UiActionRequest) => void {
  let overlay: Promise<typeof Overlay> | undefined;
  return (request) => {
    overlay ??= import('../core/overlay').then((module) => {
      adoptCss(shadow, module.overlayCss);
      return module;
    });
    void overlay.then((module) => module.runUiAction(shadow, request));
  };
}

/** The rich text chunk with its styles (cards, links, markdown), loaded with the first bot message. */
const richLoader = (shadow: ShadowRoot) => (): Promise<typeof Rich> =>
  import('./rich-text').then((module) => {
    adoptCss(shadow, module.richCss);
    return module;
  });

/** `[data-chat-trigger]` handling, a chunk of its own (opening the panel does not need it). Returns the uninstall. */
function lazyTriggers(bus: ChatBus): () => void {
  let uninstall: (() => void) | undefined;
  let stopped = false;
  void import('../core/trigger').then((module) => {
    if (!stopped) uninstall = module.installDeclarativeTriggers(bus);
  });
  return () => {
    stopped = true;
    uninstall?.();
  };
}

/** Mount the widget into `host`'s shadow root. Returns the unmount function. */
export function mountWidget(options: MountOptions): () => void {
  const { host, bus } = options;
  const shadow = host.shadowRoot ?? host.attachShadow({ mode: 'open' });
  adoptCss(shadow, widgetCss);
  const container = document.createElement('div');
  shadow.append(container);

  const overlay = options.pointerOverlay !== false;
  const store = createStore({
    bus,
    agentId: options.agentId,
    apiUrl: options.apiUrl,
    config: options.config,
    fabShown: options.staticFab !== undefined,
    runUiAction: overlay ? lazyOverlay(shadow) : undefined,
    fetch: options.fetch,
    loadRich: richLoader(shadow),
    loadLive: () =>
      import('./live').then((module: typeof Live) => {
        adoptCss(shadow, module.liveCss);
        return module;
      }),
  });
  const cleanups = [
    watchDarkClass(host, (value) => (store.dark.value = value)),
    trackVisualViewport(host),
    options.declarativeTriggers === false ? () => undefined : lazyTriggers(bus),
    options.keepAttached ? keepPinned(host) : () => undefined,
  ];
  render(h(App, { store }), container);
  if (options.staticFab) {
    const focused = shadow.activeElement === options.staticFab;
    options.staticFab.remove();
    if (focused) shadow.querySelector<HTMLElement>('.scw-fab')?.focus();
  }
  cleanups.push(store.start());
  bus.mounted = true;

  return () => {
    cleanups.forEach((cleanup) => cleanup());
    render(null, container);
    container.remove();
    // A remount (React strict mode, a new agent id) adopts the sheet again.
    shadow.adoptedStyleSheets = [];
    bus.mounted = false;
  };
}
