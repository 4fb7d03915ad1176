import { languageDetector } from '@service/shared/detect-language';
import type { StoredAgent } from '../../domains/agents/agents';
import type { ChatRequestBody } from './chat-request';

/**
 * The language of a visitor's turn: their new message's, or, when it is too short to tell ("ok", "Danke!"), the
 * conversation's previous language (its latest earlier message that tells one), then the browser's, then the agent's
 * locale. The widget's interface locale (en, tr) is another thing and plays no part.
 */
export async function chatLanguage(agent: StoredAgent, body: ChatRequestBody): Promise<string> {
  const { conversationLanguage, detectLanguage } = await languageDetector();
  const visitorTexts = body.messages.flatMap((message) => (message.role === 'user' ? [message.content] : []));
  const latest = visitorTexts.pop() ?? '';
  const previous = visitorTexts.reverse().map(detectLanguage).find(Boolean);
  return conversationLanguage(latest, [previous, body.language, agent.locale]);
}
