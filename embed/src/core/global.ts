import { adoptBus, createBus } from './bus';
import type { ChatBus } from './bus';

declare global {
  interface Window {
    /** The bus; before the widget loads a page may have put a queue stub here (see adoptBus). */
    __service_chat?: ChatBus;
  }
}

let serverBus: ChatBus | undefined;

/** The page's bus singleton `window.__service_chat`, created on first use. Safe to call during SSR. */
export function getBus(): ChatBus {
  if (typeof window === 'undefined') return (serverBus ??= createBus());
  return (window.__service_chat = adoptBus(window.__service_chat));
}
