import type { ChatBus } from './event-bus';

/** The behavioural props of ChatTrigger (the visual ones live in the adapters). */
export interface TriggerOptions {
  systemPrompt?: string;
  botMessage?: string;
  userMessage?: string;
  highlightFab?: boolean;
  /** ms before the bot speaks; the spec's default is 150. */
  delay?: number;
}

export const DEFAULT_TRIGGER_DELAY = 150;
const FAB_PULSE_MS = 700;

const sleep = (duration: number) => new Promise((resolve) => setTimeout(resolve, duration));

/**
 * The spec's trigger sequence: (pulse the FAB), inject the hidden system prompt, open the window,
 * then after `delay` ms the bot speaks botMessage, or userMessage is sent as the visitor.
 */
export async function runTrigger(bus: ChatBus, options: TriggerOptions): Promise<void> {
  if (options.highlightFab) {
    bus.emit('highlight', { duration: FAB_PULSE_MS });
    await sleep(FAB_PULSE_MS);
  }
  if (options.systemPrompt) bus.emit('system', { prompt: options.systemPrompt });
  bus.emit('open');
  await sleep(Number.isFinite(options.delay) && (options.delay ?? 0) >= 0 ? (options.delay as number) : DEFAULT_TRIGGER_DELAY);
  if (options.botMessage) bus.emit('botMessage', { text: options.botMessage });
  else if (options.userMessage) bus.emit('send', { text: options.userMessage });
}

/** The declarative form for plain HTML: `data-chat-trigger` plus `data-chat-*` attributes mapped to the props. */
export function triggerOptionsFromElement(element: HTMLElement): TriggerOptions {
  const data = element.dataset;
  const delay = data.chatDelay === undefined ? undefined : Number(data.chatDelay);
  return {
    systemPrompt: data.chatSystemPrompt,
    botMessage: data.chatBotMessage,
    userMessage: data.chatUserMessage,
    highlightFab: data.chatHighlightFab !== undefined && data.chatHighlightFab !== 'false',
    delay: delay !== undefined && Number.isFinite(delay) ? delay : undefined,
  };
}

const TRIGGER = '[data-chat-trigger]';
// Elements a keyboard can already focus and press.
const NATIVE = 'button, a[href], input, select, textarea, summary';

/** A trigger written as a span or div gets what a button has: a tab stop and the button role. */
function makeOperable(element: Element): void {
  if (!(element instanceof HTMLElement) || element.matches(NATIVE)) return;
  if (!element.hasAttribute('tabindex')) element.tabIndex = 0;
  if (!element.hasAttribute('role')) element.setAttribute('role', 'button');
}

/**
 * Clicks on any `[data-chat-trigger]` element run the trigger sequence; triggers that are not buttons or links are
 * made focusable and run on Enter and Space as a button does. Returns the uninstall function.
 */
export function installDeclarativeTriggers(bus: ChatBus, root: Document = document): () => void {
  const triggerOf = (event: Event) => {
    const element = (event.target as Element | null)?.closest?.(TRIGGER);
    return element instanceof HTMLElement ? element : null;
  };
  const onClick = (event: MouseEvent) => {
    const element = triggerOf(event);
    if (!element) return;
    event.preventDefault();
    void runTrigger(bus, triggerOptionsFromElement(element));
  };
  const onKeyDown = (event: KeyboardEvent) => {
    const element = triggerOf(event);
    if (!element || element.matches(NATIVE) || (event.key !== 'Enter' && event.key !== ' ')) return;
    event.preventDefault();
    void runTrigger(bus, triggerOptionsFromElement(element));
  };
  root.querySelectorAll(TRIGGER).forEach(makeOperable);
  const observer = new MutationObserver((records) => {
    for (const record of records) {
      for (const node of record.addedNodes) {
        if (node instanceof Element) [node, ...node.querySelectorAll(TRIGGER)].filter((el) => el.matches(TRIGGER)).forEach(makeOperable);
      }
    }
  });
  observer.observe(root.documentElement, { childList: true, subtree: true });
  root.addEventListener('click', onClick);
  root.addEventListener('keydown', onKeyDown);
  return () => {
    observer.disconnect();
    root.removeEventListener('click', onClick);
    root.removeEventListener('keydown', onKeyDown);
  };
}
