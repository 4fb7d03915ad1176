import { startObedientModel, textOf, type ChatRequest, type ObedientModel, type Turn } from './obedient-model';

// An OpenAI-compatible model on loopback that cites as real models do when they do it badly (issue 40): it searches the
// company's knowledge, then answers from the best passage citing `[1]` and a `[7]` no passage has, adds a web address
// of its own and repeats every address written in the passages it read; asked "briefly", it cites nothing; when the
// search found nothing about the question (Australia), it answers from general knowledge with a link of its own. Each door must show only what was
// retrieved.

export const MADE_UP_URL = 'https://made-up.example/help';
export const GENERAL_KNOWLEDGE_URL = 'https://en.wikipedia.org/wiki/Canberra';

interface ReadPassage {
  number?: number;
  text: string;
}

/** The passages of a knowledge search result, wherever the tool message nests them (`{results: [...]}`). */
function passagesIn(value: unknown): ReadPassage[] | undefined {
  if (typeof value === 'string') {
    try {
      return passagesIn(JSON.parse(value));
    } catch {
      return undefined;
    }
  }
  if (!value || typeof value !== 'object') return undefined;
  const results = (value as { results?: unknown }).results;
  if (Array.isArray(results)) return results.filter((found): found is ReadPassage => typeof found?.text === 'string');
  for (const nested of Object.values(value)) {
    const found = passagesIn(nested);
    if (found) return found;
  }
  return undefined;
}

export function misbehavingTurn(request: ChatRequest): Turn {
  if (request.response_format?.type === 'json_object' || request.response_format?.type === 'json_schema') {
    return { text: JSON.stringify({ result: 'ok', summary: 'Answered.', follow_up: null }) };
  }
  const lastUser = request.messages.findLastIndex((message) => message.role === 'user');
  const question = textOf(request.messages[lastUser]?.content);
  const read = request.messages.slice(lastUser + 1).filter((message) => message.role === 'tool');
  const offered = (request.tools ?? []).some((tool) => tool.function.name === 'knowledge__search');
  if (read.length === 0 && offered) return { toolCall: { name: 'knowledge__search', arguments: { query: question } } };
  const passages = read.flatMap((message) => passagesIn(textOf(message.content)) ?? []);
  // Nothing found, or nothing about the question (a search finds some passage for almost any words).
  if (passages.length === 0 || /\bAustralia\b/.test(question)) return { text: `Canberra is the capital of Australia, see ${GENERAL_KNOWLEDGE_URL} for more.` };
  const best = passages[0]!.text.split(/(?<=\.)\s/)[0]!;
  if (/\bbriefly\b/i.test(question)) return { text: best };
  const planted = passages.flatMap((passage) => passage.text.match(/https?:\/\/[^\s)]+[^\s).,]/g) ?? []);
  return { text: `${best} [1] Everything else is explained there [7]. Read more at ${MADE_UP_URL} and ${planted.join(' and ')}.` };
}

export const startMisbehavingModel = (): Promise<ObedientModel> => startObedientModel(misbehavingTurn);
