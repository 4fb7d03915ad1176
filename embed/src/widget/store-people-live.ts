// In the reply's chunk: what changes when people answer (told by a reply's stream or the live stream).
import type { HandoffState } from '../core/event-bus';
import type * as Live from './live';
import { newId, type PeopleState, type StoreCore } from './store-core';

/** Who answers now, told to the host page (the outbound `handoff`) when it changed. */
export function handedTo(
  core: StoreCore,
  people: PeopleState,
  state: { handler: HandoffState['handler']; assignee: { name: string } | null; email?: 'requested' | 'given' },
): void {
  const { emailWanted, emailForm } = people;
  emailWanted.value = state.handler === 'people' && state.email === 'requested';
  if (emailWanted.value && !emailForm.value) void import('./email-form').then((module) => (emailForm.value = module.EmailForm));
  const next: HandoffState = { handler: state.handler, assignee: state.assignee?.name ?? null };
  if (JSON.stringify(next) === JSON.stringify(people.people.value ?? { handler: 'agent', assignee: null })) return;
  people.people.value = next;
  core.bus.emit('handoff', next);
}

/** Follows people's messages into the transcript from the conversation's live stream, after the last one shown; returns the stop. */
export function followPeople(core: StoreCore, people: PeopleState, live: typeof Live, conversationId: string): () => void {
  const { messages, conversation } = core;
  return live.followPeople(
    { ...core.connection(), conversationId, after: conversation.liveAfter ?? 0, locale: core.locale(), agentName: core.agentName() },
    {
      onState: (state) => handedTo(core, people, state),
      onEnd: () => (people.stopLive = undefined),
      onTyping: (name) => (people.teammateTyping.value = name),
      onMessage(message, seq) {
        conversation.liveAfter = seq;
        if (message) {
          if (message.role === 'teammate') people.teammateTyping.value = null;
          messages.value = [...messages.value, { id: newId(), done: true, ...message }];
          core.announcement.value = message.author ? `${message.author}: ${message.text}` : message.text;
        }
        core.persist();
      },
    },
  );
}
