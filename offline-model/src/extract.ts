// Values the offline model can lift out of plain text. Each pattern is deliberately simple; what it does not
// recognise (relative dates such as "tomorrow", names written in lower case) the model leaves unknown.

export interface ExtractedValues {
  emails: string[];
  urls: string[];
  /** Site-relative paths such as `/pricing`. */
  paths: string[];
  /** CSS id or class selectors such as `#pricing` or `.plan-card`. */
  selectors: string[];
  quoted: string[];
  names: string[];
  phones: string[];
  /** ISO dates, `YYYY-MM-DD`. */
  dates: string[];
  /** Times of day, `HH:MM` (24 h). */
  times: string[];
  /** Date-times: written ones as given, else the first date combined with the first time. */
  dateTimes: string[];
  numbers: number[];
}

const EMAIL = /[\p{L}\p{N}._%+-]+@[\p{L}\p{N}.-]+\.\p{L}{2,}/gu;
const URL_PATTERN = /https?:\/\/[^\s<>"'`)\]]+[^\s<>"'`)\].,;:!?]/g;
const PATH = /(?<![\p{L}\p{N}/.:])\/[a-z0-9][a-z0-9\-_/]*/giu;
const SELECTOR = /(?<![^\s("'])[#.][a-z][\w-]*/giu;
const QUOTED = /"([^"\n]+)"|“([^”\n]+)”|«([^»\n]+)»|(?<![\p{L}\p{N}])'([^'\n]+)'(?![\p{L}\p{N}])/gu;
const DATE_TIME = /\b\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2})?(?:Z|[+-]\d{2}:?\d{2})?/g;
const DATE = /\b\d{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12]\d|3[01])\b/g;
const TIME = /(?<![\d:])(?:[01]?\d|2[0-3]):[0-5]\d(?![\d:])/g;
const PHONE_CANDIDATE = /\+?\d[\d\s().-]{5,}\d/g;
const NUMBER = /(?<![\p{L}\d.])-?\d+(?:\.\d+)?(?![\p{L}\d])/gu;
const CAPITALISED_RUN = /\p{Lu}\p{Ll}+(?: \p{Lu}\p{Ll}+)+/gu;
const NAME_AFTER_CUE = /\b(?:named|called|to|for|with|from|isimli|adlı)\s+(\p{Lu}\p{Ll}+)/gu;

// Capitalised words that start sentences or name things, never people.
const NOT_NAMES = new Set(
  [
    'add',
    'send',
    'create',
    'please',
    'schedule',
    'book',
    'remind',
    'email',
    'mail',
    'call',
    'show',
    'tell',
    'write',
    'make',
    'save',
    'new',
    'hello',
    'hi',
    'dear',
    'thanks',
    'the',
    'a',
    'an',
    'i',
    'we',
    'my',
    'our',
    'contact',
    'contacts',
    'meeting',
    'task',
    'event',
    'calendar',
    'subject',
    'body',
    'note',
    'welcome',
    'take',
    'go',
    'open',
    'monday',
    'tuesday',
    'wednesday',
    'thursday',
    'friday',
    'saturday',
    'sunday',
    'january',
    'february',
    'march',
    'april',
    'may',
    'june',
    'july',
    'august',
    'september',
    'october',
    'november',
    'december',
    'ekle',
    'gönder',
    'oluştur',
    'lütfen',
    'merhaba',
    'selam',
    'kaydet',
    'göster',
    'yeni',
    'toplantı',
    'görev',
    'kişi',
    'pazartesi',
    'salı',
    'çarşamba',
    'perşembe',
    'cuma',
    'cumartesi',
    'pazar',
    'ocak',
    'şubat',
    'mart',
    'nisan',
    'mayıs',
    'haziran',
    'temmuz',
    'ağustos',
    'eylül',
    'ekim',
    'kasım',
    'aralık',
  ].map((word) => word.toLocaleLowerCase('en')),
);

function isNameWord(word: string): boolean {
  return !NOT_NAMES.has(word.toLocaleLowerCase('tr')) && !NOT_NAMES.has(word.toLowerCase());
}

function unique<T>(values: T[]): T[] {
  return [...new Set(values)];
}

/** Person names in the order they appear. */
function personNames(text: string): string[] {
  const runs = [...text.matchAll(CAPITALISED_RUN)].map((match) => {
    const words = match[0].split(' ');
    while (words.length > 0 && !isNameWord(words[0] ?? '')) words.shift();
    return { index: match.index, name: words.length >= 2 && words.every(isNameWord) ? words.join(' ') : '' };
  });
  const fullNames = runs.filter(({ name }) => name !== '');
  // A single cued word ("to Jane") only counts when it is not already part of a full name.
  const cued = [...text.matchAll(NAME_AFTER_CUE)]
    .map((match) => ({ index: match.index, name: match[1] ?? '' }))
    .filter(({ name }) => isNameWord(name) && !fullNames.some((full) => full.name.split(' ').includes(name)));
  return unique([...fullNames, ...cued].sort((a, b) => a.index - b.index).map(({ name }) => name));
}

function phones(text: string): string[] {
  return [...text.matchAll(PHONE_CANDIDATE)]
    .map((match) => match[0].trim())
    .filter((candidate) => {
      const digits = candidate.replace(/\D/g, '').length;
      return digits >= 7 && digits <= 15 && !/^\d{4}-\d{2}-\d{2}/.test(candidate);
    });
}

export function extractValues(text: string): ExtractedValues {
  const emails = unique(text.match(EMAIL) ?? []);
  const urls = unique(text.match(URL_PATTERN) ?? []);
  const withoutLinks = urls.concat(emails).reduce((rest, value) => rest.split(value).join(' '), text);
  const writtenDateTimes = text.match(DATE_TIME) ?? [];
  const dates = unique(text.match(DATE) ?? []);
  const times = unique(withoutLinks.replace(DATE_TIME, ' ').match(TIME) ?? []);
  const firstDate = dates[0];
  const firstTime = times[0];
  const combined = writtenDateTimes.length === 0 && firstDate && firstTime ? [`${firstDate}T${firstTime}`] : [];
  const phoneNumbers = unique(phones(withoutLinks.replace(DATE_TIME, ' ').replace(DATE, ' ')));
  const plain = [DATE_TIME, DATE, TIME, PHONE_CANDIDATE].reduce((rest, pattern) => rest.replace(pattern, ' '), withoutLinks);
  return {
    emails,
    urls,
    paths: unique(withoutLinks.match(PATH) ?? []),
    selectors: unique(withoutLinks.match(SELECTOR) ?? []),
    quoted: [...text.matchAll(QUOTED)].map((match) => (match[1] ?? match[2] ?? match[3] ?? match[4] ?? '').trim()),
    names: personNames(withoutLinks),
    phones: phoneNumbers,
    dates,
    times,
    dateTimes: unique([...writtenDateTimes.map((value) => value.replace(' ', 'T')), ...combined]),
    numbers: (plain.match(NUMBER) ?? []).map(Number),
  };
}
