import { languageName } from '@service/shared/languages';
import type { Language, ReplyLanguage } from './language';

// Every sentence the offline model writes, per language. Each answer starts with `intro`, so nobody mistakes
// the offline model for a real one. In a conversation language it does not write, it answers in English and says so.

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
  /** After the `handoff` tool: a person of the team will answer. */
  handedOff: string;
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
    handedOff: 'I have asked a person from our team to join; they will answer you here.',
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
    handedOff: 'Ekibimizden birinin katılmasını istedim; size buradan yanıt verecek.',
  },
  de: {
    intro: 'Offline-Demomodell:',
    generic: (request) =>
      `Ich habe Ihre Nachricht gelesen ("${shortQuote(request)}"). Ich bin ein deterministischer Platzhalter für ein Sprachmodell: ` +
      'Ich rufe nur Werkzeuge auf, deren Namen zu einer Anfrage passen, fülle strukturierte Ausgaben aus den erhaltenen Daten ' +
      'und beantworte Fragen zu Preisen, Dokumentation, Skills und Agenten. Für vollständige Antworten stellen Sie MODEL auf ein echtes Modell um.',
    receivedData: (keys) => `Ich habe Daten mit diesen Feldern erhalten: ${keys}.`,
    usedTool: (tool, result) => `Ich habe ${tool} verwendet: ${result}.`,
    toolFailed: (tool, error) => `${tool} ist fehlgeschlagen: ${error}.`,
    toolNotRun: (tool, reason) => `${tool} wurde nicht ausgeführt${reason ? `: ${reason}` : ''}.`,
    needsInput: (tool, fields) => `Um ${tool} zu verwenden, brauche ich noch: ${fields}.`,
    noResult: 'erledigt',
    navigated: (href) => `Ich habe ${href} für Sie geöffnet.`,
    pointedAt: (target) => `Schauen Sie hier, ich habe auf ${target} gezeigt.`,
    handedOff: 'Ich habe eine Person aus unserem Team gebeten, dazuzukommen; sie antwortet Ihnen hier.',
  },
  es: {
    intro: 'Modelo de demostración sin conexión:',
    generic: (request) =>
      `He leído su mensaje ("${shortQuote(request)}"). Soy un sustituto determinista de un modelo de lenguaje: solo llamo a ` +
      'las herramientas cuyo nombre coincide con una petición, relleno la salida estructurada con los datos recibidos y respondo ' +
      'preguntas sobre precios, documentación, skills y agentes. Para respuestas completas, configure MODEL con un modelo real.',
    receivedData: (keys) => `He recibido datos con estos campos: ${keys}.`,
    usedTool: (tool, result) => `He usado ${tool}: ${result}.`,
    toolFailed: (tool, error) => `${tool} ha fallado: ${error}.`,
    toolNotRun: (tool, reason) => `${tool} no se ha ejecutado${reason ? `: ${reason}` : ''}.`,
    needsInput: (tool, fields) => `Para usar ${tool} todavía necesito: ${fields}.`,
    noResult: 'hecho',
    navigated: (href) => `He abierto ${href} para usted.`,
    pointedAt: (target) => `Mire aquí, he señalado ${target}.`,
    handedOff: 'He pedido a una persona de nuestro equipo que se una; le responderá aquí.',
  },
};

/** The phrases of a reply: in its language, or in English with a note saying which language it cannot write. */
export function phrasesFor(reply: ReplyLanguage): Phrases {
  const phrases = PHRASES[reply.language];
  if (!reply.unwritten) return phrases;
  return { ...phrases, intro: `${phrases.intro} (I cannot write ${languageName(reply.unwritten)}, so I answer in English.)` };
}
