import { h } from 'preact';
import type { VNode } from 'preact';
import { useSignal } from '@preact/signals';
import type { Locale } from '../core/event-bus';
import { renderIcon } from '../core/icons';
import type { CreateElement } from '../core/create-element';

/** What the form needs of the store (structural, so the store may name the form's type). */
interface EmailFormProps {
  store: { locale(): Locale; emailWanted: { value: boolean }; send(text: string, handoff: boolean, email: string): Promise<void> };
}

const LABELS = {
  en: { label: 'Your e-mail address', send: 'Send address', invalid: 'Please enter a valid e-mail address.' },
  tr: { label: 'E-posta adresiniz', send: 'Adresi gönder', invalid: 'Lütfen geçerli bir e-posta adresi girin.' },
} as const;

/**
 * The e-mail field offered once nobody was available: an address, checked by the browser (type=email) and the
 * server. A chunk of its own, loaded when an address is first asked for; its styles come with the live chunk.
 */
export function EmailForm({ store }: EmailFormProps) {
  const labels = LABELS[store.locale()];
  const invalid = useSignal(false);
  const submit = (event: Event) => {
    event.preventDefault();
    const field = (event.currentTarget as HTMLFormElement).elements.namedItem('email') as HTMLInputElement;
    const email = field.value.trim();
    const valid = email !== '' && field.checkValidity();
    invalid.value = !valid;
    if (!valid) return;
    // The address goes as the visitor's message and as the request's `email` (the server checks it again).
    store.emailWanted.value = false;
    void store.send(email, false, email);
  };
  return (
    <form class="scw-form scw-email" data-role="email-form" onSubmit={submit} noValidate>
      <input
        name="email"
        type="email"
        maxLength={254}
        autoComplete="email"
        aria-label={labels.label}
        placeholder={labels.label}
        aria-invalid={invalid.value}
        aria-describedby={invalid.value ? 'scw-email-error' : undefined}
      />
      <button type="submit" class="scw-send" aria-label={labels.send} title={labels.send}>
        {renderIcon(h as unknown as CreateElement<VNode>, 'send')}
      </button>
      {invalid.value && (
        <div id="scw-email-error" class="scw-email-error" role="alert">
          {labels.invalid}
        </div>
      )}
    </form>
  );
}
