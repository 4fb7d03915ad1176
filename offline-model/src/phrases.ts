import type { Language } from './language';

// Every sentence the offline model writes, per language. Each answer starts with `intro`, so nobody mistakes
// the offline model for a real one.

export interface Phrases {
  intro: string;
  generic: (request: string) => string;
  receivedData: (keys: string) => string;
  usedTool: (tool: string, result: string) => string;
  toolFailed: (tool: string, error: string) => string;
  toolNotRun: (tool: string, reason: string | undefined) => string;
  needsInput: (tool: string, fields: string) => string;
  noResult: string;
  navigated: (href: string) => string;
  pointedAt: (target: string) => string;
}

const QUOTE_LIMIT = 80;

function shortQuote(text: string): string {
  const clean = text.replace(/\s+/g, ' ').trim();
  return clean.length <= QUOTE_LIMIT ? clean : `${clean.slice(0, QUOTE_LIMIT - 1)}…`;
}

export const PHRASES: Record<Language, Phrases> = {
  en: {
    intro: 'Offline demo model:',
    generic: (request) =>
      `I read your message ("${shortQuote(request)}"). I am a deterministic stand-in for a language model, so I only ` +
      'call tools whose names match a request, fill structured output from the data I am given, and answer questions ' +
      'about pricing, docs, skills and agents. Set MODEL to a real model for full answers.',
    receivedData: (keys) => `I received data with these fields: ${keys}.`,
    usedTool: (tool, result) => `I used ${tool}: ${result}.`,
    toolFailed: (tool, error) => `${tool} failed: ${error}.`,
    toolNotRun: (tool, reason) => `${tool} was not run${reason ? `: ${reason}` : ''}.`,
    needsInput: (tool, fields) => `To use ${tool} I still need: ${fields}.`,
    noResult: 'done',
    navigated: (href) => `I opened ${href} for you.`,
    pointedAt: (target) => `Look here, I pointed at ${target}.`,
  },
  tr: {
    intro: 'Çevrimdışı demo modeli:',
    generic: (request) =>
      `Mesajınızı okudum ("${shortQuote(request)}"). Ben bir dil modelinin yerine geçen deterministik bir demoyum; ` +
      'yalnızca adı isteğe uyan araçları çağırır, yapılandırılmış çıktıyı verilen verilerden doldurur ve fiyatlar, ' +
      'belgeler, beceriler ve ajanlar hakkındaki soruları yanıtlarım. Tam yanıtlar için MODEL ayarını gerçek bir modele çevirin.',
    receivedData: (keys) => `Şu alanlarla veri aldım: ${keys}.`,
    usedTool: (tool, result) => `${tool} aracını kullandım: ${result}.`,
    toolFailed: (tool, error) => `${tool} başarısız oldu: ${error}.`,
    toolNotRun: (tool, reason) => `${tool} çalıştırılmadı${reason ? `: ${reason}` : ''}.`,
    needsInput: (tool, fields) => `${tool} için hâlâ şunlar gerekli: ${fields}.`,
    noResult: 'tamamlandı',
    navigated: (href) => `Sizi ${href} sayfasına götürdüm.`,
    pointedAt: (target) => `Şuraya bakın, ${target} öğesini gösterdim.`,
  },
};
