import type { ExtractedValues } from './extract';
import type { Language } from './language';
import { containsWord, wordsOf } from './words';

// The chat-widget rules of the offline model (spec 1): topics a visitor may ask about, the rich markers the
// answer carries for each, and when to call the widget's `navigate` and `ui_action` tools.
// To extend: add a topic to TOPICS (first match wins), or words to the intent lists below.

export interface Topic {
  id: string;
  /** Words that select the topic; entries of four letters or more also match as prefixes. */
  words: readonly string[];
  /** Where `navigate` goes for this topic. */
  href: string;
  /** What `ui_action` points at for this topic: a CSS selector or a `data-chat-target` value. */
  target: string;
  label: Record<Language, string>;
  reply: Record<Language, string>;
  /** Markers appended to the reply: [Type:label|value] per spec 1. */
  markers: Record<Language, readonly string[]>;
}

export const TOPICS: readonly Topic[] = [
  {
    id: 'pricing',
    words: ['price', 'pricing', 'cost', 'plans', 'billing', 'fiyat', 'ücret', 'paket', 'abonelik', 'preis', 'koste', 'tarif', 'precio', 'cuesta', 'planes'],
    href: '/pricing',
    target: '#pricing',
    label: { en: 'Pricing', tr: 'Fiyatlandırma', de: 'Preise', es: 'Precios' },
    reply: {
      en: 'Our plans and prices are on the pricing page.',
      tr: 'Planlarımız ve fiyatlarımız fiyatlandırma sayfasında.',
      de: 'Unsere Tarife und Preise stehen auf der Preisseite.',
      es: 'Nuestros planes y precios están en la página de precios.',
    },
    markers: {
      en: ['[Page:Pricing|/pricing]', '[Action:Show me|highlight|#pricing]'],
      tr: ['[Page:Fiyatlandırma|/pricing]', '[Action:Göster|highlight|#pricing]'],
      de: ['[Page:Preise|/pricing]', '[Action:Zeig es mir|highlight|#pricing]'],
      es: ['[Page:Precios|/pricing]', '[Action:Muéstramelo|highlight|#pricing]'],
    },
  },
  {
    id: 'mcp',
    words: ['mcp'],
    href: '/docs/mcp',
    target: '#mcp',
    label: { en: 'MCP access point', tr: 'MCP erişim noktası', de: 'MCP-Zugangspunkt', es: 'Punto de acceso MCP' },
    reply: {
      en: 'Assistants can work with your agents through our MCP access point.',
      tr: 'Asistanlar ajanlarınızla MCP erişim noktamız üzerinden çalışabilir.',
      de: 'Assistenten können über unseren MCP-Zugangspunkt mit Ihren Agenten arbeiten.',
      es: 'Los asistentes pueden trabajar con sus agentes a través de nuestro punto de acceso MCP.',
    },
    markers: {
      en: ['[Page:MCP access point|/docs/mcp]', '[Link:Model Context Protocol|https://modelcontextprotocol.io]'],
      tr: ['[Page:MCP erişim noktası|/docs/mcp]', '[Link:Model Context Protocol|https://modelcontextprotocol.io]'],
      de: ['[Page:MCP-Zugangspunkt|/docs/mcp]', '[Link:Model Context Protocol|https://modelcontextprotocol.io]'],
      es: ['[Page:Punto de acceso MCP|/docs/mcp]', '[Link:Model Context Protocol|https://modelcontextprotocol.io]'],
    },
  },
  {
    id: 'docs',
    words: [
      'docs',
      'documentation',
      'guide',
      'api',
      'reference',
      'webhook',
      'dokümantasyon',
      'doküman',
      'belge',
      'kılavuz',
      'dokumentation',
      'anleitung',
      'documentación',
      'guía',
    ],
    href: '/docs',
    target: '#docs',
    label: { en: 'Documentation', tr: 'Belgeler', de: 'Dokumentation', es: 'Documentación' },
    reply: {
      en: 'The documentation covers the REST API, webhooks and the widget.',
      tr: 'Belgeler REST API, webhook ve widget konularını kapsar.',
      de: 'Die Dokumentation behandelt die REST-API, Webhooks und das Widget.',
      es: 'La documentación cubre la API REST, los webhooks y el widget.',
    },
    markers: {
      en: ['[Page:Documentation|/docs]', '[Link:REST API reference|/docs/api]'],
      tr: ['[Page:Belgeler|/docs]', '[Link:REST API başvurusu|/docs/api]'],
      de: ['[Page:Dokumentation|/docs]', '[Link:REST-API-Referenz|/docs/api]'],
      es: ['[Page:Documentación|/docs]', '[Link:Referencia de la API REST|/docs/api]'],
    },
  },
  {
    id: 'skills',
    words: ['skill', 'skills', 'integration', 'capability', 'capabilities', 'beceri', 'yetenek', 'entegrasyon', 'fähigkeit', 'habilidad', 'integración'],
    href: '/skills',
    target: '#skills',
    label: { en: 'Skills', tr: 'Beceriler', de: 'Skills', es: 'Skills' },
    reply: {
      en: 'Agents gain tools through skills, for example:',
      tr: 'Ajanlar becerilerle yeni araçlar kazanır, örneğin:',
      de: 'Agenten erhalten Werkzeuge über Skills, zum Beispiel:',
      es: 'Los agentes obtienen herramientas mediante skills, por ejemplo:',
    },
    markers: {
      en: ['[Skill:Calendar booking|calendar_booking]', '[Skill:E-mail|email]', '[Skill:Contacts|contacts]', '[Page:All skills|/skills]'],
      tr: ['[Skill:Takvim randevusu|calendar_booking]', '[Skill:E-posta|email]', '[Skill:Kişiler|contacts]', '[Page:Tüm beceriler|/skills]'],
      de: ['[Skill:Terminbuchung|calendar_booking]', '[Skill:E-Mail|email]', '[Skill:Kontakte|contacts]', '[Page:Alle Skills|/skills]'],
      es: ['[Skill:Reserva de citas|calendar_booking]', '[Skill:Correo electrónico|email]', '[Skill:Contactos|contacts]', '[Page:Todos los skills|/skills]'],
    },
  },
  {
    id: 'agents',
    words: ['agent', 'agents', 'assistant', 'bot', 'ajan', 'asistan', 'temsilci', 'agente', 'asistente'],
    href: '/agents',
    target: '#agents',
    label: { en: 'Agents', tr: 'Ajanlar', de: 'Agenten', es: 'Agentes' },
    reply: {
      en: 'You can hire an agent from a preset and give it skills.',
      tr: 'Hazır bir şablondan ajan işe alıp ona beceriler verebilirsiniz.',
      de: 'Sie können einen Agenten aus einer Vorlage einstellen und ihm Skills geben.',
      es: 'Puede contratar un agente a partir de una plantilla y darle skills.',
    },
    markers: {
      en: ['[Agent:Support agent|support]', '[Page:Agents|/agents]'],
      tr: ['[Agent:Destek ajanı|support]', '[Page:Ajanlar|/agents]'],
      de: ['[Agent:Support-Agent|support]', '[Page:Agenten|/agents]'],
      es: ['[Agent:Agente de soporte|support]', '[Page:Agentes|/agents]'],
    },
  },
  {
    id: 'contact',
    words: ['support', 'human', 'sales', 'destek', 'iletişim', 'satış', 'kontakt', 'vertrieb', 'mensch', 'soporte', 'ventas', 'contacto'],
    href: '/contact',
    target: '#contact',
    label: { en: 'Contact', tr: 'İletişim', de: 'Kontakt', es: 'Contacto' },
    reply: {
      en: 'Our team is reachable through the contact page.',
      tr: 'Ekibimize iletişim sayfasından ulaşabilirsiniz.',
      de: 'Unser Team erreichen Sie über die Kontaktseite.',
      es: 'Puede contactar con nuestro equipo en la página de contacto.',
    },
    markers: { en: ['[Page:Contact|/contact]'], tr: ['[Page:İletişim|/contact]'], de: ['[Page:Kontakt|/contact]'], es: ['[Page:Contacto|/contact]'] },
  },
];

export type UiAction = 'pointer' | 'highlight' | 'scroll';

const NAVIGATE_WORDS = [
  'go',
  'take',
  'open',
  'navigate',
  'visit',
  'bring',
  'redirect',
  'git',
  'götür',
  'yönlendir',
  'aç',
  'geç',
  'öffne',
  'gehe',
  'führ',
  'abre',
  'lléva',
  'llevar',
];
const UI_ACTION_WORDS: ReadonlyArray<[UiAction, readonly string[]]> = [
  ['highlight', ['highlight', 'vurgula', 'markiere', 'hervorheben', 'resalta']],
  ['scroll', ['scroll', 'kaydır', 'scrolle', 'desplaza']],
  ['pointer', ['show', 'point', 'where', 'göster', 'nerede', 'işaret', 'zeig', 'muestra', 'muéstra', 'dónde']],
];

export function topicOf(request: string): Topic | undefined {
  const words = wordsOf(request);
  return TOPICS.find((topic) => containsWord(words, topic.words));
}

export function markerReply(topic: Topic, language: Language): string {
  return [topic.reply[language], ...topic.markers[language]].join(' ');
}

export interface WidgetCall {
  toolName: 'navigate' | 'ui_action';
  input: { href: string } | { action: UiAction; target: string };
}

/** Calls of the widget tools that the request asks for, among those offered. */
export function widgetCalls(request: string, extracted: ExtractedValues, offered: ReadonlySet<string>): WidgetCall[] {
  const words = wordsOf(request);
  const topic = topicOf(request);
  const calls: WidgetCall[] = [];
  const href = extracted.paths[0] ?? extracted.urls[0] ?? topic?.href;
  if (offered.has('navigate') && href && containsWord(words, NAVIGATE_WORDS)) calls.push({ toolName: 'navigate', input: { href } });
  const action = UI_ACTION_WORDS.find(([, entries]) => containsWord(words, entries))?.[0];
  const target = extracted.selectors[0] ?? extracted.quoted[0] ?? topic?.target;
  if (offered.has('ui_action') && action && target) calls.push({ toolName: 'ui_action', input: { action, target } });
  return calls;
}

export const WIDGET_TOOL_NAMES: ReadonlySet<string> = new Set(['navigate', 'ui_action']);

const TODAY = /\bToday is (\d{4}-\d{2}-\d{2})\b/;
const RELATIVE_DAY = /\b(today|tomorrow|bugün|yarın)\s+(?:at|saat)\s+([01]?\d|2[0-3])(?::([0-5]\d))?\b/iu;

/**
 * A visitor's "tomorrow at 10" as a date-time (UTC), when a system prompt says which day today is (the widget's and
 * a run's do): so "Book a demo tomorrow at 10" can fill a booking tool's start.
 */
export function relativeDateTime(request: string, contextTexts: readonly string[]): string | undefined {
  const today = contextTexts.map((text) => TODAY.exec(text)?.[1]).find(Boolean);
  const [, day, hour, minute] = RELATIVE_DAY.exec(request) ?? [];
  if (!today || !day || !hour) return undefined;
  const date = new Date(`${today}T00:00:00Z`);
  if (/^(tomorrow|yarın)$/iu.test(day)) date.setUTCDate(date.getUTCDate() + 1);
  return `${date.toISOString().slice(0, 10)}T${hour.padStart(2, '0')}:${minute ?? '00'}`;
}
