import { fileURLToPath } from 'node:url';
import { minimalPdf } from '../pdf';
import { markdownPages, startMarkdownSite, type MarkdownSite } from '../markdown-site';

/**
 * The team's own help center, for the knowledge tests: Tallyfern, a fictional invoicing product, in 33 Markdown pages
 * (`pages/`, one English and one German), written by us (nothing third-party), with headings, links between pages, a
 * price list as a PDF, a sitemap and a robots.txt, served on loopback (markdown-site.ts). Pages are at
 * `/docs/<slug>` (`billing`, `2fa`, `de/preise`), the PDF at `/files/price-list.pdf`.
 */
export type HelpCenter = MarkdownSite;

const PAGES = fileURLToPath(new URL('./pages/', import.meta.url));
export const PRICE_LIST_PATH = '/files/price-list.pdf';

/** The pages, by slug; `only` narrows the site to some of them (a quicker crawl). */
const helpCenterPages = (only?: string[]): Map<string, string> => markdownPages(PAGES, only);

/** The price list the plans page links, as a two-page PDF. */
export const priceList = () =>
  minimalPdf(
    ['Tallyfern price list 2026. Solo 9 euros, Team 29 euros, Business 79 euros a month.', 'Yearly billing: two months free on every plan.'],
    'Tallyfern price list',
  );

/** `withPdf: false` leaves the price list out (a site of pages alone). */
export function startHelpCenter(options: { only?: string[]; popular?: string[]; withPdf?: boolean } = {}): Promise<HelpCenter> {
  return startMarkdownSite(helpCenterPages(options.only), {
    name: 'Tallyfern Help',
    home: '<h1>Tallyfern help center</h1><p>Guides for invoicing, expenses and your account.</p><p>New here? Start with <a href="/docs/introduction">the introduction</a>.</p>',
    ...(options.popular ? { popular: options.popular } : {}),
    footer: '<p>© 2026 Tallyfern (a fictional company: test content written for this repository). <a href="/docs/support">Contact</a></p>',
    header: [
      ['Guides', '/docs/introduction'],
      ['Pricing', '/docs/subscription-plans'],
      ['API', '/docs/api'],
    ],
    published: new Date('2026-05-04T00:00:00Z'),
    ...(options.withPdf === false ? {} : { files: { [PRICE_LIST_PATH]: { type: 'application/pdf', body: priceList() } } }),
  });
}

/** A question asked in other words than its page's, the fact the answer must carry, and the page it must cite. */
export interface ParaphraseQuestion {
  question: string;
  fact: string;
  slug: string;
}

/**
 * Twelve questions worded as a customer would, not as the pages are: each shares a word or two with its page (the
 * index is lexical: with no embedding model, a question sharing no word with its page cannot find it).
 */
export const PARAPHRASES: readonly ParaphraseQuestion[] = [
  { question: 'Which payment methods do you take?', fact: 'PayPal', slug: 'billing' },
  { question: 'Can I get my money back if I am not happy?', fact: '14 days', slug: 'refunds' },
  { question: 'At the start, how long can I use it for free?', fact: '21 days', slug: 'trial' },
  { question: 'How do I switch on login codes from an authenticator app?', fact: 'Settings › Security', slug: '2fa' },
  { question: 'I forgot my password, what now?', fact: 'one hour', slug: 'reset-password' },
  { question: 'In which country is my data kept?', fact: 'Frankfurt', slug: 'data-privacy' },
  { question: 'Can my customers settle a bill by card?', fact: 'Stripe', slug: 'online-payments' },
  { question: 'Can the same invoice go out by itself each quarter?', fact: 'every quarter', slug: 'recurring-invoices' },
  { question: 'Can you remind my clients when they have not paid?', fact: '7 days after', slug: 'payment-reminders' },
  { question: 'How long until everything is gone once I delete the workspace?', fact: '30 days', slug: 'delete-account' },
  { question: 'Is there a limit on API calls?', fact: '60 requests', slug: 'api' },
  { question: 'Can I charge customers in yen?', fact: '40 currencies', slug: 'currencies' },
];

/** Questions the help center says nothing about: the answer is "I do not know", with no source. */
export const OFF_TOPIC: readonly string[] = [
  'What is the capital of Australia?',
  'Do you sell espresso machines?',
  'Who won the football World Cup in 2018?',
  'What is a good recipe for banana bread?',
  'How tall is Mount Everest?',
  'Can you recommend a hotel in Lisbon?',
];

/** A written answer of the company's (knowledge/answer_create), and a paraphrase of its question sharing at most one word with it. */
export interface WrittenAnswer {
  question: string;
  answer: string;
  asked: string;
  fact: string;
}

export const WRITTEN_ANSWERS: readonly WrittenAnswer[] = [
  {
    question: 'Do you have a phone line for support?',
    answer: 'No, our support works by e-mail only: write to help@tallyfern.example.',
    asked: 'Can I call you on the phone for help?',
    fact: 'e-mail only',
  },
  {
    question: 'Is there a discount for charities?',
    answer: 'Registered charities get 50% off every plan; send us your registration.',
    asked: 'Do non-profit organisations get a discount?',
    fact: '50% off',
  },
  {
    question: 'Can I pay the yearly plan in installments?',
    answer: 'Yes: a yearly plan can be paid in four quarterly parts.',
    asked: 'Could I spread the cost over several installments?',
    fact: 'four quarterly parts',
  },
  {
    question: 'Where is your office?',
    answer: 'Our office is at Hafenstraße 12 in Hamburg; visits by appointment.',
    asked: 'Can I visit your office in person?',
    fact: 'Hafenstraße 12',
  },
];
