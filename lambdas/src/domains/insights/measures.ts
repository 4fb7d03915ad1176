import type { ConversationFacts, RunFacts } from './repository';

/**
 * The measures, defined once (docs/insights.md says the same in words): what a conversation's facts make of it, and
 * the sums of a day. Pure: the time and the quiet period come in.
 */
export type Outcome = 'resolved' | 'handed_off' | 'abandoned' | 'open';

const ms = (iso: string | undefined) => (iso ? Date.parse(iso) : undefined);

/**
 * - handed_off: it passed to people (whatever came after);
 * - resolved: the agent answered the visitor's last message and that answer was rated up (confirmed), or the visitor
 *   then stayed quiet for the quiet period, the answer neither rated down nor one that left the question unanswered
 *   (assumed);
 * - abandoned: quiet for the quiet period and not resolved: the last message unanswered, its answer rated down, or
 *   the agent saying it does not know;
 * - open: still within the quiet period after its last message.
 */
export function outcomeOf(facts: ConversationFacts, now: number, quietMs: number): Outcome {
  if (facts.handedOffAt) return 'handed_off';
  const lastVisitor = ms(facts.lastVisitorAt) ?? 0;
  const lastAnswer = ms(facts.lastAnswerAt);
  const answer = facts.lastAnswerId ? facts.answers?.[facts.lastAnswerId] : undefined;
  const rating = facts.lastAnswerId ? facts.ratings?.[facts.lastAnswerId]?.rating : undefined;
  const answeredLast = lastAnswer !== undefined && lastAnswer >= lastVisitor && answer !== undefined && !answer.unanswered;
  if (answeredLast && rating === 'up') return 'resolved';
  if (now - Math.max(lastVisitor, lastAnswer ?? 0) < quietMs) return 'open';
  return answeredLast && rating !== 'down' ? 'resolved' : 'abandoned';
}

const COUNTS = [
  'conversations',
  'resolved',
  'handed_off',
  'abandoned',
  'open',
  'answers',
  'unanswered',
  'ratings_up',
  'ratings_down',
  'tool_calls',
  'tool_failures',
  'runs',
  'runs_failed',
  'input_tokens',
  'output_tokens',
] as const;

export type Counts = Record<(typeof COUNTS)[number], number>;

export interface DayMeasures {
  counts: Counts;
  /** Tokens of conversations alone (the cost per conversation), beside the runs'. */
  conversationTokens: { input: number; output: number };
  agentResponseMs: number[];
  humanResponseMs: number[];
}

export const emptyDay = (): DayMeasures => ({
  counts: Object.fromEntries(COUNTS.map((name) => [name, 0])) as Counts,
  conversationTokens: { input: 0, output: 0 },
  agentResponseMs: [],
  humanResponseMs: [],
});

const between = (from: string | undefined, to: string | undefined) => (from && to ? Math.max(0, Date.parse(to) - Date.parse(from)) : undefined);

/** Adds one conversation to its day. */
export function addConversation(day: DayMeasures, facts: ConversationFacts, now: number, quietMs: number): void {
  const { counts } = day;
  counts.conversations += 1;
  counts[outcomeOf(facts, now, quietMs)] += 1;
  for (const answer of Object.values(facts.answers ?? {})) {
    counts.answers += 1;
    if (answer.unanswered) counts.unanswered += 1;
    counts.tool_calls += answer.toolCalls;
    counts.tool_failures += answer.toolFailures;
    counts.input_tokens += answer.inputTokens;
    counts.output_tokens += answer.outputTokens;
    day.conversationTokens.input += answer.inputTokens;
    day.conversationTokens.output += answer.outputTokens;
  }
  for (const rating of Object.values(facts.ratings ?? {})) counts[rating.rating === 'up' ? 'ratings_up' : 'ratings_down'] += 1;
  const agent = between(facts.firstVisitorAt, facts.firstAnswerAt);
  if (agent !== undefined) day.agentResponseMs.push(agent);
  const human = between(facts.handedOffAt, facts.firstHumanReplyAt);
  if (human !== undefined) day.humanResponseMs.push(human);
}

/** Adds one ended run to its day. */
export function addRun(day: DayMeasures, facts: RunFacts): void {
  const { counts } = day;
  counts.runs += 1;
  if (facts.status === 'failed') counts.runs_failed += 1;
  counts.tool_calls += facts.toolCalls;
  counts.tool_failures += facts.toolFailures;
  counts.input_tokens += facts.inputTokens;
  counts.output_tokens += facts.outputTokens;
}

/** Sums days (the range's total). */
export function sumDays(days: DayMeasures[]): DayMeasures {
  const total = emptyDay();
  for (const day of days) {
    for (const name of COUNTS) total.counts[name] += day.counts[name];
    total.conversationTokens.input += day.conversationTokens.input;
    total.conversationTokens.output += day.conversationTokens.output;
    total.agentResponseMs.push(...day.agentResponseMs);
    total.humanResponseMs.push(...day.humanResponseMs);
  }
  return total;
}

/** The median of some durations (the lower middle of an even count), or null when there are none. */
export function median(values: number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  return Math.round(sorted[Math.floor((sorted.length - 1) / 2)]!);
}
