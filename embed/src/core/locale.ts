import type { Locale } from './event-bus';

export const LOCALES: readonly Locale[] = ['en', 'tr'];

export function isLocale(value: unknown): value is Locale {
  return typeof value === 'string' && (LOCALES as readonly string[]).includes(value);
}

/** Every string the widget shows, in each supported language. */
export const STRINGS = {
  en: {
    openChat: 'Open chat with {name}',
    closeChat: 'Close chat',
    teaser: 'Hi, I am {name}. Need {word} with anything?',
    teaserWord: 'help',
    dismiss: 'Dismiss',
    nudge: 'Still looking? I am happy to help.',
    placeholder: 'Type your message…',
    inputLabel: 'Message',
    send: 'Send',
    stop: 'Stop',
    stopped: 'Stopped',
    clear: 'Clear conversation',
    typing: '{name} is typing',
    welcome: 'Hello! How can I help you today?',
    error: 'Sorry, I could not reach the assistant. Please try again.',
    rateLimited: 'You are sending messages too quickly. Please wait a moment.',
    conversation: 'Conversation',
    unread: '{count} unread',
    defaultName: 'Assistant',
    defaultRole: 'Online',
    openTarget: 'Open {target}',
    timeout: 'The reply took too long. Please try again.',
    talkToPerson: 'I would like to talk to a person.',
  },
  tr: {
    openChat: '{name} ile sohbeti aç',
    closeChat: 'Sohbeti kapat',
    teaser: 'Merhaba, ben {name}. Bir konuda {word} ister misiniz?',
    teaserWord: 'yardım',
    dismiss: 'Kapat',
    nudge: 'Hâlâ arıyor musunuz? Yardımcı olmaktan memnuniyet duyarım.',
    placeholder: 'Mesajınızı yazın…',
    inputLabel: 'Mesaj',
    send: 'Gönder',
    stop: 'Durdur',
    stopped: 'Durduruldu',
    clear: 'Sohbeti temizle',
    typing: '{name} yazıyor',
    welcome: 'Merhaba! Bugün size nasıl yardımcı olabilirim?',
    error: 'Üzgünüm, asistana ulaşılamadı. Lütfen tekrar deneyin.',
    rateLimited: 'Çok hızlı mesaj gönderiyorsunuz. Lütfen biraz bekleyin.',
    conversation: 'Sohbet',
    unread: '{count} okunmamış',
    defaultName: 'Asistan',
    defaultRole: 'Çevrimiçi',
    openTarget: '{target} adresini aç',
    timeout: 'Yanıt çok uzun sürdü. Lütfen tekrar deneyin.',
    talkToPerson: 'Bir kişiyle konuşmak istiyorum.',
  },
} satisfies Record<Locale, Record<string, string>>;

export type StringKey = keyof (typeof STRINGS)['en'];

export function translate(locale: Locale, key: StringKey, values: Record<string, string | number> = {}): string {
  return STRINGS[locale][key].replace(/\{(\w+)\}/g, (whole, name: string) => String(values[name] ?? whole));
}

/** The spec's order: a host's detectLocale, else the URL's first path segment, else the API's locale, else English. */
export function resolveLocale(options: { detected?: string | undefined; pathname: string; apiLocale?: string | undefined }): Locale {
  if (isLocale(options.detected)) return options.detected;
  const segment = options.pathname.split('/')[1];
  if (isLocale(segment)) return segment;
  if (isLocale(options.apiLocale)) return options.apiLocale;
  return 'en';
}
