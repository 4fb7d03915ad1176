// The one-line embed: <script src="{origin}/embed/loader.js" data-agent-id="{uuid}" async></script>
// Tiny and framework-free: creates the bus at once (commands sent before the widget loads are queued and replayed),
// one host element with a shadow root, and imports the widget chunk lazily. Nothing else touches the host page.
import { adoptBus } from './core/bus';
import { pinHost } from './core/host';
import type { ConfigOverrides } from './core/config';
import type { MountOptions } from './widget/mount';

const script = document.currentScript as HTMLScriptElement | null;
const bus = (window.__service_chat = adoptBus(window.__service_chat));

function numberAttr(value: string | undefined): number | undefined {
  const parsed = value === undefined || value === '' ? NaN : Number(value);
  return Number.isFinite(parsed) ? parsed : undefined;
}

function start(source: HTMLScriptElement): void {
  const data = source.dataset;
  const host = document.createElement('div');
  host.id = 'service-chat';
  pinHost(host);
  host.attachShadow({ mode: 'open' });
  const config: ConfigOverrides = {
    showDelay: numberAttr(data.showDelay),
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
  };
  import(new URL('widget.js', source.src).href).then(
    (chunk: { mountWidget(options: MountOptions): void }) => chunk.mountWidget(options),
    (error: unknown) => console.error('[service-chat] could not load the widget:', error),
  );
}

if (script && !bus.mounted) {
  bus.mounted = true;
  if (document.body) start(script);
  else addEventListener('DOMContentLoaded', () => start(script), { once: true });
}
