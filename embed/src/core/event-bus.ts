import { getBus } from './global';
import type { ChatBus } from './bus';

/** The spec's ChatEventBus export: the page's singleton, reached lazily so importing it is SSR-safe. */
export const ChatEventBus: ChatBus = {
  emit: (name, payload) => getBus().emit(name, payload),
  on: (name, handler) => getBus().on(name, handler),
  debug: (enabled) => getBus().debug(enabled),
  get listenerCount() {
    return getBus().listenerCount;
  },
  hasListeners: (name) => getBus().hasListeners(name),
  markReady: () => getBus().markReady(),
  get mounted() {
    return getBus().mounted;
  },
  set mounted(value) {
    getBus().mounted = value;
  },
};
