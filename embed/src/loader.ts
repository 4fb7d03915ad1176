// The one-line embed: <script src="{origin}/embed/loader.js" data-agent-id="{uuid}" async></script>
// Tiny and framework-free: creates the bus at once (commands sent before the widget loads are queued and replayed, a
// queue stub the page defined first is adopted), one host element with a shadow root in the top layer, a static FAB
// after showDelay, and imports the widget chunk on intent or when idle. Nothing else touches the host page.
import { adoptBus } from './core/event-bus';
import { pinHost } from './core/host';
import { paintStaticFab } from './core/static-fab';
import type { ConfigOverrides } from './core/config';
import type { MountOptions } from './widget/mount';

const script = document.currentScript as HTMLScriptElement | null;
// The page's fetch as the loader found it: a host page may replace window.fetch later (see MountOptions.fetch).
const foundFetch = fetch.bind(window);
const bus = (window.__service_chat = adoptBus(window.__service_chat));

// The spec's default; a different showDelay from the API applies once the widget runs.
const DEFAULT_SHOW_DELAY = 2000;
// The longest the widget code waits for an idle moment when the visitor shows no intent.
const IDLE_LOAD_MS = 1500;

function numberAttr(value: string | undefined): number | undefined {
  const parsed = value === undefined || value === '' ? NaN : Number(value);
  return Number.isFinite(parsed) ? parsed : undefined;
}

function start(source: HTMLScriptElement): void {
  const data = source.dataset;
  const host = document.createElement('div');
  host.id = 'service-chat';
  pinHost(host);
  const shadow = host.attachShadow({ mode: 'open' });
  const showDelay = numberAttr(data.showDelay);
  const config: ConfigOverrides = {
    showDelay,
    teaserDelay: numberAttr(data.teaserDelay),
    idleNudgeDelay: numberAttr(data.idleNudgeDelay),
  };
  const options: MountOptions = {
    host,
    bus,
    agentId: data.agentId ?? '',
    apiUrl: data.apiUrl || new URL(source.src).origin,
    config,
    keepAttached: true,
    fetch: foundFetch,
  };
  // A signed-in visitor the host's server signed (queued like any command until the widget loads).
  if (data.userToken || (data.userId && data.userHash))
    bus.emit('identify', data.userToken ? { userToken: data.userToken } : { userId: data.userId!, userHash: data.userHash! });
  let loading: Promise<void> | undefined;
  const load = () =>
    (loading ??= import(new URL('widget.js', source.src).href).then(
      (chunk: { mountWidget(options: MountOptions): void }) => {
        mounted = true;
        chunk.mountWidget({ ...options, staticFab });
      },
      (error: unknown) => console.error('[service-chat] could not load the widget:', error),
    ));
  let staticFab: HTMLElement | undefined;
  let mounted = false;
  // A FAB the visitor can press at once; the widget code loads on intent (pointer, focus, touch), on a press, and
  // otherwise once the page is idle (the teaser and host commands need it).
  setTimeout(() => {
    if (!mounted) {
      staticFab = paintStaticFab(shadow, () => {
        bus.emit('open');
        void load();
      });
    }
  }, showDelay ?? DEFAULT_SHOW_DELAY);
  for (const intent of ['pointerover', 'focusin', 'touchstart']) host.addEventListener(intent, () => void load(), { once: true, passive: true });
  const idle = () => void load();
  if ('requestIdleCallback' in window) requestIdleCallback(idle, { timeout: IDLE_LOAD_MS });
  else setTimeout(idle, IDLE_LOAD_MS);
}

if (script && !bus.mounted) {
  bus.mounted = true;
  if (document.body) start(script);
  else addEventListener('DOMContentLoaded', () => start(script), { once: true });
}
