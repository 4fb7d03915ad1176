import { replyLanguageLine } from '@service/shared';
import type { StoredAgent } from '../../domains/agents/agents';
import { knowledgeRules } from '../../domains/runs/runtime/run-sources';
import type { ChatRequestBody } from './chat-request';
import type { VisitorIdentity } from '../../domains/visitor-identity/visitor-identity';

/** When the agent may pass the conversation to people (its `handoff` tool), and how it offers a person. */
const HANDOFF_RULES =
  'When the visitor asks for a person, call the handoff tool with a short summary for the teammate. When you cannot help, ' +
  'offer a person with the marker [Action:Talk to a person|handoff] (the widget shows it as a button).';

/**
 * The system prompt of a widget conversation: the agent's persona, today's date, the conversation language, the marker
 * syntax of spec 1, how to answer from the company's knowledge when the visitor's role may search it, and the hidden
 * context the host page set (system prompts, setContext data, the page the visitor is on).
 */
export function widgetSystemPrompt(
  agent: StoredAgent,
  request: ChatRequestBody,
  language: string,
  now: Date,
  knowledge = false,
  handoff = false,
  visitor?: VisitorIdentity,
): string {
  const lines = [
    `You are ${agent.name}, ${agent.role} at ${agent.branding.companyName}. ${agent.persona}`,
    `You answer visitors in the chat widget of the company's website, briefly. Today is ${now.toISOString().slice(0, 10)}.`,
    replyLanguageLine(language),
    'You may add inline markers the widget renders as cards: [Skill:label|skill_id], [Agent:label|agent_slug], ' +
      '[Page:label|/path], [Link:label|https://url], [Action:label|pointer|target]. ' +
      'Use the navigate tool to open a page for the visitor, and the ui_action tool to point at, highlight or scroll to an element of the current page.',
  ];
  if (knowledge) lines.push(knowledgeRules());
  if (handoff) lines.push(HANDOFF_RULES);
  // Signed by the company's server (a valid visitor token): facts about the visitor, quoted as data, not instructions.
  if (visitor?.proof === 'token')
    lines.push(`The company's server verified this visitor: ${JSON.stringify({ user_id: visitor.userId, ...visitor.attributes })}`);
  if (request.page) lines.push(`The visitor is on "${request.page.title}" (${request.page.url}).`);
  if (Object.keys(request.context.data).length > 0) lines.push(`Context from the site: ${JSON.stringify(request.context.data)}`);
  for (const prompt of request.context.system) lines.push(`Site instruction: ${prompt}`);
  return lines.join('\n');
}
