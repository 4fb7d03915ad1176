import { tool } from 'ai';
import { DomainError } from '@service/shared';
import { z } from 'zod';
import { LIVE_LIMITS, type ConversationHandler, type LiveState } from '@service/shared/live-conversation';
import { handoffSettingsOf, type StoredAgent } from '../../domains/agents/agents';
import { liveStateOf, readConversation } from '../../domains/conversations/conversation-state';
import { announceMessage, requestHandoff } from '../../domains/conversations/handling';
import { leaveEmail } from '../../domains/conversations/nobody-available';
import { stopEmailReplies, type StoredMessage } from '../../domains/conversations/conversations';
import type { Deps } from '../../infra/deps';

/** Whether the visitor's text contains one of the agent's handoff keywords (words or phrases, any case). */
export function hasHandoffKeyword(keywords: readonly string[], text: string): boolean {
  const lower = text.toLocaleLowerCase();
  return keywords.some((keyword) => keyword.trim().length > 0 && lower.includes(keyword.trim().toLocaleLowerCase()));
}

/** People took the visitor's message: their state, and the agent's fixed answer when there is one (thanks for an address). */
export interface PeopleTurn {
  state: LiveState;
  reply?: StoredMessage;
}

/**
 * Whether people take the visitor's message (it is stored already) instead of the agent: they handle the conversation
 * (the teammates hear of it: conversation.message_created), or the visitor asked for a person (Talk to a person), or
 * the message has a handoff keyword of the agent (then it passes to people now). `email`: the address the visitor
 * left in the widget's field, kept on the conversation (teammates' replies then go to it); any other message of theirs
 * means they are back in the widget, and replies stop going by e-mail. Undefined: the agent answers.
 */
export async function peopleTake(
  deps: Deps,
  agent: StoredAgent,
  turn: {
    conversationId: string;
    handler: ConversationHandler;
    message: StoredMessage & { role: 'user' };
    askedForPerson: boolean;
    language: string;
    page: string | undefined;
    email?: string | undefined;
  },
): Promise<PeopleTurn | undefined> {
  if (turn.handler === 'people') {
    const meta = await readConversation(deps, agent.workspaceId, turn.conversationId);
    if (meta.handler === 'people') {
      await announceMessage(deps, meta, turn.message);
      if (turn.email) {
        const reply = await leaveEmail(deps, turn.conversationId, turn.email, turn.language);
        return { state: liveStateOf(await readConversation(deps, agent.workspaceId, turn.conversationId)), reply };
      }
      if (meta.emailReplies) await stopEmailReplies(deps, turn.conversationId);
      return { state: liveStateOf(meta) };
    }
  }
  const settings = handoffSettingsOf(agent);
  // An address is taken while the conversation waits for a teammate, or with the visitor's request for one (the
  // widget's retry in a new conversation, after the one that asked for the address was erased).
  if (turn.email && !(turn.askedForPerson && settings.enabled)) {
    throw new DomainError('VALIDATION_ERROR', 'An e-mail address is taken only while the conversation waits for a teammate', { field: 'email' });
  }
  if (!settings.enabled) return undefined;
  const reason = turn.askedForPerson ? 'visitor' : hasHandoffKeyword(settings.keywords, turn.message.content) ? 'keyword' : undefined;
  if (!reason) return undefined;
  // The visitor's own words are the teammate's first summary.
  const state = await requestHandoff(deps, turn.conversationId, {
    reason,
    summary: `The visitor wrote: ${turn.message.content}`.slice(0, LIVE_LIMITS.summaryChars),
    language: turn.language,
    page: turn.page,
  });
  if (!turn.email) return { state };
  const reply = await leaveEmail(deps, turn.conversationId, turn.email, turn.language);
  return { state: liveStateOf(await readConversation(deps, agent.workspaceId, turn.conversationId)), reply };
}

/**
 * The agent's built-in `handoff` tool (offered while the agent's handoff setting is on): the visitor asked for a
 * person, and the model writes the teammate a short summary. The conversation then waits for a teammate; the widget
 * hears of it at once (`onHandoff`) and the agent answers nothing more.
 */
/** What the model is told of the `handoff` tool, and what it gives (the live tool and an eval's recorded stand-in share it). */
export const HANDOFF_TOOL = {
  description:
    'Pass the conversation to a person of the team when the visitor asks for a human, or when you cannot help. ' +
    'Write a short summary for the teammate: what the visitor needs and what was tried. A teammate then answers here; tell the visitor briefly that a person will join.',
  inputSchema: z.object({
    summary: z.string().trim().min(1).max(LIVE_LIMITS.summaryChars).describe('For the teammate: what the visitor needs, in one to three sentences'),
  }),
};

export function handoffTool(
  deps: Deps,
  conversation: { conversationId: string; language: string; page: string | undefined },
  onHandoff: (state: LiveState) => void,
) {
  return tool({
    ...HANDOFF_TOOL,
    execute: async ({ summary }) => {
      const state = await requestHandoff(deps, conversation.conversationId, {
        reason: 'agent',
        summary,
        language: conversation.language,
        page: conversation.page,
      });
      onHandoff(state);
      return { handed_off: true, waiting_for: 'a teammate' };
    },
  });
}
