import { wordsOf } from './words';

export type Language = 'en' | 'tr';

// Letters that occur in Turkish but not in English; ç, ö and ü also occur in other languages, so they weigh less.
const TURKISH_ONLY_LETTERS = /[ğşı]/u;
const TURKISH_SHARED_LETTERS = /[çöü]/u;
const TURKISH_WORDS = new Set([
  've', 'bir', 'bu', 'şu', 'için', 'ile', 'ne', 'nedir', 'nasıl', 'neden', 'nerede', 'merhaba', 'lütfen', 'teşekkürler',
  'mı', 'mi', 'mu', 'mü', 'var', 'yok', 'ben', 'bana', 'beni', 'sen', 'siz', 'bize', 'evet', 'hayır', 'göster', 'ekle',
  'gönder', 'oluştur', 'fiyat', 'fiyatlar', 'ücret', 'hakkında', 'gibi', 'daha', 'çok', 'ama', 'veya', 'de', 'da',
]);
const ENGLISH_WORDS = new Set([
  'the', 'and', 'is', 'are', 'a', 'an', 'to', 'of', 'for', 'with', 'what', 'how', 'why', 'where', 'please', 'hello', 'hi',
  'thanks', 'me', 'my', 'you', 'your', 'show', 'add', 'send', 'create', 'price', 'pricing', 'about', 'can', 'do', 'it',
  'on', 'in', 'at', 'this', 'that', 'be', 'have', 'will', 'i', 'we', 'our', 'from', 'back', 'call', 'tell', 'need', 'take',
]);

/**
 * A small heuristic, good enough to answer in the visitor's language. Each word scores once: for Turkish a
 * common Turkish word or a word with a Turkish-only letter (1), or with ç/ö/ü (½); for English a common English
 * word. Counting words, not letters, keeps a Turkish name in an English sentence from tipping the scale.
 * Ties (including empty text) are English.
 */
export function detectLanguage(text: string): Language {
  let turkish = 0;
  let english = 0;
  for (const word of wordsOf(text)) {
    if (TURKISH_WORDS.has(word) || TURKISH_ONLY_LETTERS.test(word)) turkish += 1;
    else if (TURKISH_SHARED_LETTERS.test(word)) turkish += 0.5;
    else if (ENGLISH_WORDS.has(word)) english += 1;
  }
  return turkish > english ? 'tr' : 'en';
}
