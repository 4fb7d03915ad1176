import { wordsOf } from './words';

export type Language = 'en' | 'tr';

// Letters that occur in Turkish but not in English (ç, ö and ü are shared with other languages, so they weigh less).
const TURKISH_ONLY_LETTERS = /[ğşıİĞŞ]/gu;
const TURKISH_SHARED_LETTERS = /[çöüÇÖÜ]/gu;
const TURKISH_WORDS = new Set([
  've', 'bir', 'bu', 'şu', 'için', 'ile', 'ne', 'nedir', 'nasıl', 'neden', 'nerede', 'merhaba', 'lütfen', 'teşekkürler',
  'mı', 'mi', 'mu', 'mü', 'var', 'yok', 'ben', 'bana', 'beni', 'sen', 'siz', 'bize', 'evet', 'hayır', 'göster', 'ekle',
  'gönder', 'oluştur', 'fiyat', 'fiyatlar', 'ücret', 'hakkında', 'gibi', 'daha', 'çok', 'ama', 'veya', 'de', 'da',
]);
const ENGLISH_WORDS = new Set([
  'the', 'and', 'is', 'are', 'a', 'an', 'to', 'of', 'for', 'with', 'what', 'how', 'why', 'where', 'please', 'hello', 'hi',
  'thanks', 'me', 'my', 'you', 'your', 'show', 'add', 'send', 'create', 'price', 'pricing', 'about', 'can', 'do', 'it',
]);

/**
 * A small heuristic, good enough to answer in the visitor's language: Turkish-only letters count twice,
 * Turkish-shared letters once, and common function words once each. Ties (including empty text) are English.
 */
export function detectLanguage(text: string): Language {
  const words = wordsOf(text);
  const turkish =
    2 * (text.match(TURKISH_ONLY_LETTERS)?.length ?? 0) +
    (text.match(TURKISH_SHARED_LETTERS)?.length ?? 0) +
    words.filter((word) => TURKISH_WORDS.has(word)).length;
  const english = words.filter((word) => ENGLISH_WORDS.has(word)).length;
  return turkish > english ? 'tr' : 'en';
}
