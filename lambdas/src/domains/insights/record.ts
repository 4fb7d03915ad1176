import type { ConversationChannel } from '@service/shared/live-conversation';
import type { Deps } from '../../infra/deps';
import { logger } from '../../infra/logger';
export type { RunFacts } from './repository';
import { readFacts, replaceRatings, writeFacts, type AnswerFacts, type FactsKey, type FactsWrite, type RatingFacts, type RunFacts } from './repository';

/**
 * The events insights are made of (docs/insights.md), each written into the facts item of its conversation or run as
 * it happens. Each write is idempotent (repository.ts), so the caller may repeat it after a crash or a redelivery.
 */

/** A conversation of an agent, as its events name it. */
export interface ConversationOf {
  workspaceId: string;
  agentId: string;
  conversationId: string;
  /** The channel it came in by, kept from the first event that names it (unnamed: the widget). */
  channel?: ConversationChannel;
}

const channelOf = (conversation: ConversationOf) => (conversation.channel ? { channel: conversation.channel } : {});

const conversationKey = (conversation: ConversationOf, at: Date): FactsKey => ({
  workspaceId: conversation.workspaceId,
  agentId: conversation.agentId,
  sk: `conv#${conversation.conversationId}`,
  startedAt: at,
});

/**
 * Insights are a side note of the event that makes them: a failed write is logged, never the visitor's or the run's
 * failure (the answer was given; a count may be missing, never doubled).
 */
async function note(deps: Deps, key: FactsKey, write: FactsWrite): Promise<void> {
  await writeFacts(deps, key, write).catch((error: unknown) =>
    logger.error('an insights event could not be recorded', { agentId: key.agentId, workspaceId: key.workspaceId, sk: key.sk, error }),
  );
}

/** The visitor wrote (to the agent, or to people). */
export async function noteVisitorMessage(deps: Deps, conversation: ConversationOf, at: Date): Promise<void> {
  await note(deps, conversationKey(conversation, at), {
    set: { lastVisitorAt: at.toISOString() },
    first: { firstVisitorAt: at.toISOString(), ...channelOf(conversation) },
  });
}

/** The agent answered the visitor: message `messageId`, with what it took. */
export async function noteAnswer(deps: Deps, conversation: ConversationOf, messageId: string, answer: AnswerFacts): Promise<void> {
  await note(deps, conversationKey(conversation, new Date(answer.at)), {
    set: { lastAnswerAt: answer.at, lastAnswerId: messageId },
    first: { firstAnswerAt: answer.at, ...channelOf(conversation) },
    entry: { map: 'answers', id: messageId, value: answer },
  });
}

/** The conversation passed to people at `at` (a repeat keeps the first time). */
export async function noteHandoff(deps: Deps, conversation: ConversationOf, at: Date): Promise<void> {
  await note(deps, conversationKey(conversation, at), { first: { handedOffAt: at.toISOString() } });
}

/** A teammate replied to the visitor at `at` (the first reply is what the first response time measures). */
export async function noteHumanReply(deps: Deps, conversation: ConversationOf, at: Date): Promise<void> {
  await note(deps, conversationKey(conversation, at), { first: { firstHumanReplyAt: at.toISOString() } });
}

/**
 * The visitor rated the agent's answer `messageId`: one rating an answer, a new one replaces it. Unlike the other
 * events the visitor is told the outcome, so a failure here is theirs to hear (and retry).
 */
export async function recordRating(deps: Deps, conversation: ConversationOf, messageId: string, rating: RatingFacts): Promise<void> {
  await writeFacts(deps, conversationKey(conversation, new Date(rating.at)), { entry: { map: 'ratings', id: messageId, value: rating } });
}

/**
 * The visitor's data of a conversation was erased: the comments they wrote with their ratings go too (the counts,
 * which name nobody, stay). Safe to repeat.
 */
export async function forgetComments(deps: Deps, agentId: string, conversationId: string): Promise<void> {
  const sk = `conv#${conversationId}`;
  const ratings = (await readFacts(deps, agentId, sk))?.ratings ?? {};
  if (!Object.values(ratings).some((rating) => rating.comment)) return;
  const without = Object.fromEntries(Object.entries(ratings).map(([id, { rating, at }]) => [id, { rating, at }]));
  await replaceRatings(deps, agentId, sk, without);
}

/** A run ended: its facts, whole (a repeat after a crash writes the same). */
export async function noteRunEnded(
  deps: Deps,
  run: { workspaceId: string; agentId: string; runId: string; createdAt: string },
  facts: Pick<RunFacts, 'status' | 'endedAt' | 'inputTokens' | 'outputTokens' | 'toolCalls' | 'toolFailures'>,
): Promise<void> {
  await note(deps, { workspaceId: run.workspaceId, agentId: run.agentId, sk: `run#${run.runId}`, startedAt: new Date(run.createdAt) }, { set: { ...facts } });
}
