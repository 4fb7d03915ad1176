import { useSignal } from '@preact/signals';
import { RATING_LIMITS, RATING_PATH, type RatingRequest, type RatingValue } from '@service/shared/widget-protocol';
import { identityHeaders } from '../core/chat-client';
import type { Locale, VisitorIdentity } from '../core/event-bus';

/** What the thumbs need of the message and the store (structural, so the store may name the chunk's type). */
export interface RatingProps {
  message: { id: string; answerId?: string; rating?: RatingValue };
  store: {
    locale(): Locale;
    connection(): { chatUrl: string; conversationId: string; visitorId: string; fetch: typeof fetch; identity?: VisitorIdentity };
    messages: { value: { id: string; rating?: RatingValue }[] };
  };
}

const LABELS = {
  en: {
    group: 'Was this answer helpful?',
    up: 'Helpful',
    down: 'Not helpful',
    comment: 'Tell us more (optional)',
    send: 'Send',
    thanks: 'Thank you for your feedback',
    failed: 'Your rating could not be sent; please try again',
  },
  tr: {
    group: 'Bu yanıt yardımcı oldu mu?',
    up: 'Yardımcı oldu',
    down: 'Yardımcı olmadı',
    comment: 'Daha fazlasını anlatın (isteğe bağlı)',
    send: 'Gönder',
    thanks: 'Geri bildiriminiz için teşekkürler',
    failed: 'Değerlendirmeniz gönderilemedi; lütfen tekrar deneyin',
  },
} as const;

/** The styles of the thumbs, adopted with the rich text chunk (mount.ts); the theme's variables make them light or dark. */
export const ratingCss = `
.scw-rating{display:flex;flex-wrap:wrap;align-items:center;gap:4px;margin-top:6px}
.scw-rate{width:36px;height:36px;display:grid;place-items:center;border:1px solid var(--scw-line);border-radius:10px;background:var(--scw-bg);color:var(--scw-muted);cursor:pointer}
.scw-rate svg{width:18px;height:18px;fill:none;stroke:currentColor;stroke-width:2;stroke-linecap:round;stroke-linejoin:round}
.scw-rate[data-rating=down] svg{transform:scaleY(-1)}
.scw-rate[aria-pressed=true]{color:#fff;background:var(--scw-primary);border-color:var(--scw-primary)}
.scw-rate:focus-visible,.scw-rating button:focus-visible{outline:3px solid #93c5fd;outline-offset:2px}
.scw-rating form{display:flex;gap:4px;flex-basis:100%}
.scw-rating textarea{flex:1;min-width:0;min-height:40px;padding:8px 10px;border:1px solid var(--scw-line);border-radius:10px;background:var(--scw-field);color:var(--scw-fg);font:inherit;font-size:16px;resize:vertical}
.scw-rating form button{border:0;border-radius:10px;padding:0 12px;background:var(--scw-primary);color:#fff;cursor:pointer}
.scw-rating-note{flex-basis:100%;font-size:12px;color:var(--scw-muted)}`;

const thumb = (
  <svg viewBox="0 0 24 24" aria-hidden="true">
    <path d="M7 10v11H3V10zM7 10l4-8a3 3 0 0 1 3 3v4h6a2 2 0 0 1 2 2.3l-1.4 8A2 2 0 0 1 18.6 21H7" />
  </svg>
);

/** Sends the rating to the chat's sibling path (RATING_PATH): whether the server took it. */
async function sendRating(connection: ReturnType<RatingProps['store']['connection']>, body: RatingRequest): Promise<boolean> {
  try {
    const response = await connection.fetch(connection.chatUrl.replace(/\/chat$/, `/${RATING_PATH}`), {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...identityHeaders(connection.identity) },
      body: JSON.stringify(body),
      credentials: 'omit',
    });
    return response.ok;
  } catch {
    return false;
  }
}

/**
 * Thumbs up and down at the end of one of the agent's answers, then an optional comment. Rating again replaces the
 * rating (the server keeps one an answer). Part of the rich text chunk, which every answer loads anyway.
 */
export function Rating({ message, store }: RatingProps) {
  const labels = LABELS[store.locale()];
  const chosen = useSignal<RatingValue | undefined>(message.rating);
  const commenting = useSignal(false);
  const note = useSignal('');
  const answerId = message.answerId;
  if (!answerId) return null;
  const rate = async (rating: RatingValue, comment?: string) => {
    const connection = store.connection();
    const taken = await sendRating(connection, {
      conversationId: connection.conversationId,
      visitorId: connection.visitorId,
      messageId: answerId,
      rating,
      ...(comment ? { comment } : {}),
    });
    note.value = taken ? labels.thanks : labels.failed;
    if (!taken) return;
    chosen.value = rating;
    // Kept with the conversation at its next save: the thumb stays pressed after a reload.
    store.messages.value = store.messages.value.map((entry) => (entry.id === message.id ? { ...entry, rating } : entry));
  };
  const choose = (rating: RatingValue) => {
    commenting.value = true;
    void rate(rating);
  };
  const submit = (event: Event) => {
    event.preventDefault();
    const field = (event.currentTarget as HTMLFormElement).elements.namedItem('comment') as HTMLTextAreaElement;
    const comment = field.value.trim();
    if (!comment || !chosen.value) return;
    commenting.value = false;
    void rate(chosen.value, comment);
  };
  return (
    <div class="scw-rating" role="group" aria-label={labels.group} data-role="rating">
      {(['up', 'down'] as const).map((rating) => (
        <button
          key={rating}
          type="button"
          class="scw-rate"
          data-rating={rating}
          aria-pressed={chosen.value === rating}
          aria-label={labels[rating]}
          title={labels[rating]}
          onClick={() => choose(rating)}
        >
          {thumb}
        </button>
      ))}
      {commenting.value && chosen.value && (
        <form onSubmit={submit}>
          <textarea name="comment" rows={1} maxLength={RATING_LIMITS.commentChars} aria-label={labels.comment} placeholder={labels.comment} />
          <button type="submit">{labels.send}</button>
        </form>
      )}
      {note.value && (
        <span class="scw-rating-note" role="status">
          {note.value}
        </span>
      )}
    </div>
  );
}
