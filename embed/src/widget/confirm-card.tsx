import type { Locale } from '../core/event-bus';

/** What the card needs of the message and the store (structural, so the store may name the card's type). */
interface ConfirmProps {
  message: { id: string; text: string; confirm?: { actionId: string } };
  store: { locale(): Locale; streaming: { value: boolean }; decide(id: string, actionId: string, confirm: boolean): Promise<void> };
}

const LABELS = { en: ['Confirm', 'Decline'], tr: ['Onayla', 'Vazgeç'] } as const;

/**
 * Confirm and Decline under an action the agent wants to perform for the visitor (the message's text is its
 * summary). A chunk of its own, loaded with the first action to confirm.
 */
export function ConfirmCard({ message, store }: ConfirmProps) {
  const actionId = message.confirm?.actionId;
  if (!actionId) return null;
  const [yes, no] = LABELS[store.locale()];
  const busy = store.streaming.value;
  return (
    <div class="scw-offer scw-confirm" role="group" aria-label={message.text}>
      <button type="button" class="scw-action" disabled={busy} onClick={() => void store.decide(message.id, actionId, true)}>
        {yes}
      </button>
      <button type="button" class="scw-card scw-card-page" disabled={busy} onClick={() => void store.decide(message.id, actionId, false)}>
        {no}
      </button>
    </div>
  );
}
