import { createBus } from './bus';
import type { ChatBus } from './bus';

declare global {
  interface Window {
    __service_chat?: ChatBus;
  }
}

let serverBus: ChatBus | undefined;

/** The page's bus singleton `window.__service_chat`, created on first use. Safe to call during SSR. */
export function getBus(): ChatBus {
  if (typeof window === 'undefined') return (serverBus ??= createBus());
  return (window.__service_chat ??= createBus());
}
