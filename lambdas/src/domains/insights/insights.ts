import { INSIGHTS_LIMITS, type DataOf } from '@service/shared';
import type { Deps } from '../../infra/deps';
import { getAgent } from '../agents/agents';
import { listUnanswered } from '../knowledge/unanswered';
import { costOf, pricingOf } from './cost';
import { addConversation, addRun, emptyDay, median, sumDays, type DayMeasures } from './measures';
import { queryFacts, type ConversationFacts, type RunFacts } from './repository';

/**
 * The insights domain: the facts of each conversation and run, recorded as they happen (record.ts), and the measures
 * per agent and day read from them (measures.ts, cost.ts): resolved, handed off, abandoned, knowledge gaps, ratings.
 */
type Report = DataOf<'insightsAgent'>;

const DAY_MS = 24 * 60 * 60 * 1000;

/** Every date from `from` to `to` (YYYY-MM-DD, inclusive). */
function datesOf(from: string, to: string): string[] {
  const dates: string[] = [];
  for (let at = Date.parse(from); at <= Date.parse(to); at += DAY_MS) dates.push(new Date(at).toISOString().slice(0, 10));
  return dates;
}

const isRun = (facts: ConversationFacts | RunFacts): facts is RunFacts => facts.sk.startsWith('run#');

/** The comments visitors left with their ratings, newest first. */
function commentsOf(conversations: ConversationFacts[]): Report['comments'] {
  return conversations
    .flatMap((facts) =>
      Object.entries(facts.ratings ?? {})
        .filter(([, rating]) => rating.comment)
        .map(([messageId, rating]) => ({
          conversation_id: facts.sk.slice('conv#'.length),
          message_id: messageId,
          rating: rating.rating,
          comment: rating.comment!,
          at: rating.at,
        })),
    )
    .sort((a, b) => b.at.localeCompare(a.at))
    .slice(0, INSIGHTS_LIMITS.maxComments);
}

/** A channel's conversation measures (runs have no channel). */
function channelMeasures(day: DayMeasures): Report['by_channel']['widget'] {
  const { conversations, resolved, handed_off, abandoned, open, answers, unanswered, ratings_up, ratings_down } = day.counts;
  return {
    conversations,
    resolved,
    handed_off,
    abandoned,
    open,
    answers,
    unanswered,
    ratings_up,
    ratings_down,
    first_response_ms_agent: median(day.agentResponseMs),
    first_response_ms_human: median(day.humanResponseMs),
  };
}

/**
 * insights/agent: the agent's measures per day of the range, aggregated on read from its facts items of those days
 * (one indexed query of the agent's partition, bounded by the range; docs/insights.md says why), with its knowledge
 * gaps and the visitors' comments. Another workspace's agent is AGENT_NOT_FOUND.
 */
export async function agentInsights(deps: Deps, workspaceId: string, query: { agent_id: string; from: string; to: string }): Promise<Report> {
  await getAgent(deps, workspaceId, query.agent_id);
  const [facts, gaps] = await Promise.all([
    queryFacts(deps, query.agent_id, query.from, query.to),
    listUnanswered(deps, workspaceId, { agent_id: query.agent_id, limit: INSIGHTS_LIMITS.maxGaps }),
  ]);
  const mine = facts.filter((item) => item.workspaceId === workspaceId);
  const now = deps.now().getTime();
  const quietMs = INSIGHTS_LIMITS.quietMinutes * 60_000;
  const days = new Map(datesOf(query.from, query.to).map((date) => [date, emptyDay()]));
  const channels = { widget: emptyDay(), email: emptyDay() };
  for (const item of mine) {
    const day = days.get(item.daySk.slice(0, 10));
    if (!day) continue;
    if (isRun(item)) addRun(day, item);
    else {
      addConversation(day, item, now, quietMs);
      addConversation(channels[item.channel ?? 'widget'], item, now, quietMs);
    }
  }
  const pricing = pricingOf(deps.config);
  const measures = (day: DayMeasures) => ({
    ...day.counts,
    ...costOf(pricing, day),
    first_response_ms_agent: median(day.agentResponseMs),
    first_response_ms_human: median(day.humanResponseMs),
  });
  return {
    agent_id: query.agent_id,
    from: query.from,
    to: query.to,
    quiet_minutes: INSIGHTS_LIMITS.quietMinutes,
    pricing,
    total: measures(sumDays([...days.values()])),
    by_channel: { widget: channelMeasures(channels.widget), email: channelMeasures(channels.email) },
    days: [...days].map(([date, day]) => ({ date, ...measures(day) })),
    knowledge_gaps: gaps.map(({ id, text, language, count, last_asked_at }) => ({ id, text, language, count, last_asked_at })),
    comments: commentsOf(mine.filter((item): item is ConversationFacts => !isRun(item))),
  };
}
