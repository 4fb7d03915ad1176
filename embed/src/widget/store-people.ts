import { signal } from '@preact/signals';
import type * as Live from './live';
import { loadReply } from './store-chunks';
import type { PeopleState, StoreCore } from './store-core';

/**
 * The conversation once people were asked for: who answers, a teammate typing and the e-mail field (signals the
 * panel reads), and the live stream, followed with the reply's chunk (store-people-live.ts) and the live chunk.
 */
export function createPeople(core: StoreCore, loadLive: () => Promise<typeof Live>) {
  const { conversation } = core;
  const state: PeopleState = {
    people: signal(null),
    teammateTyping: signal(null),
    emailWanted: signal(false),
    emailForm: signal(null),
    follow() {
      if (state.stopLive) return;
      conversation.liveAfter ??= 0;
      const following = conversation.conversationId;
      state.stopLive = () => undefined;
      void Promise.all([loadReply(), loadLive()]).then(([chunk, live]) => {
        if (conversation.conversationId === following && state.stopLive) state.stopLive = chunk.followPeople(core, state, live, following);
      });
    },
  };

  function stop(): void {
    state.stopLive?.();
    state.stopLive = undefined;
  }

  /** A new conversation: back with the agent, nothing followed. */
  function reset(): void {
    stop();
    delete conversation.liveAfter;
    state.people.value = null;
    state.teammateTyping.value = null;
    state.emailWanted.value = false;
  }

  return { state, stop, reset };
}
