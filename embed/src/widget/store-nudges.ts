import { signal } from '@preact/signals';
import type { WidgetConfig } from '../core/config';
import type { StoreCore } from './store-core';

const NUDGE_MS = 6000;
const activity = ['pointerdown', 'keydown', 'scroll'] as const;

/**
 * What draws the visitor's eye while the panel is closed, each on its timer: the FAB after its delay, the teaser (once
 * a conversation), a host's nudge, and the idle nudge after a quiet spell on the page.
 */
export function createNudges(core: StoreCore, fabShown: boolean) {
  const { open, conversation } = core;
  const fabVisible = signal(fabShown);
  const teaserVisible = signal(false);
  const nudgeText = signal<string | null>(null);
  const timers: ReturnType<typeof setTimeout>[] = [];
  const later = (fn: () => void, delay: number) => timers.push(setTimeout(fn, Math.max(0, delay)));
  let mountedAt = 0;
  const elapsed = () => performance.now() - mountedAt;
  let nudgeTimer: ReturnType<typeof setTimeout> | undefined;
  let idleTimer: ReturnType<typeof setTimeout> | undefined;
  let idleDelay = 0;
  let nudged = false;

  function show(value: string, duration = NUDGE_MS): void {
    if (open.value) return;
    clearTimeout(nudgeTimer);
    nudgeText.value = value;
    nudgeTimer = setTimeout(() => (nudgeText.value = null), Math.min(Math.max(duration, 0), 120_000));
  }

  function resetIdle(): void {
    clearTimeout(idleTimer);
    if (idleDelay > 0 && !nudged) {
      idleTimer = setTimeout(() => {
        if (open.value) return resetIdle();
        nudged = true;
        show(core.t('nudge'));
      }, idleDelay);
    }
  }

  /** From the mount: the FAB appears after showDelay even while the configuration is still loading (it pulses meanwhile). */
  function start(showDelay: number): void {
    mountedAt = performance.now();
    later(() => (fabVisible.value = true), showDelay);
    for (const name of activity) addEventListener(name, resetIdle, { passive: true, capture: true });
  }

  /** The loaded configuration's delays, counted from the mount. */
  function configured({ showDelay, teaserDelay, idleNudgeDelay }: WidgetConfig['widget']): void {
    later(() => (fabVisible.value = true), showDelay - elapsed());
    later(() => {
      if (!open.value && !conversation.teaserSeen) teaserVisible.value = true;
    }, teaserDelay - elapsed());
    idleDelay = idleNudgeDelay;
    resetIdle();
  }

  function stop(): void {
    timers.forEach(clearTimeout);
    clearTimeout(idleTimer);
    clearTimeout(nudgeTimer);
    for (const name of activity) removeEventListener(name, resetIdle, { capture: true });
  }

  return { fabVisible, teaserVisible, nudgeText, show, start, configured, stop };
}
