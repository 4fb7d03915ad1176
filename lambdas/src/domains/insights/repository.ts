import type { ConversationChannel } from '@service/shared/live-conversation';
import type { Deps } from '../../infra/deps';
import { queryAll, readItem, updateIf } from '../../infra/store/dynamo';

/**
 * The insights domain's repository: every store call of the `insights` table. One facts item per conversation
 * (`conv#<id>`) and per run (`run#<id>`) of an agent; every event is written into it with SET, by the event's own id
 * where one item holds many (an answer, a rating: map entries keyed by the message id), never with ADD: an event
 * written twice (a retry, a redelivery) leaves the item as it was.
 */
export interface AnswerFacts {
  at: string;
  inputTokens: number;
  outputTokens: number;
  toolCalls: number;
  toolFailures: number;
  /** The answer left the question unanswered (knowledge/unanswered.ts: leftUnanswered). */
  unanswered: boolean;
}

export interface RatingFacts {
  rating: 'up' | 'down';
  comment?: string;
  at: string;
}

interface FactsBase {
  agentId: string;
  sk: string;
  workspaceId: string;
  /** `<YYYY-MM-DD>#<sk>`: the day it started, which the byDay index sorts on. */
  daySk: string;
  startedAt: string;
  expiresAtEpoch: number;
}

export interface ConversationFacts extends FactsBase {
  /** The channel it came in by; absent on facts written before e-mail (all widget). */
  channel?: ConversationChannel;
  firstVisitorAt?: string;
  lastVisitorAt?: string;
  firstAnswerAt?: string;
  lastAnswerAt?: string;
  /** The last answer's message id (which rating decides a confirmed resolution). */
  lastAnswerId?: string;
  handedOffAt?: string;
  firstHumanReplyAt?: string;
  answers?: Record<string, AnswerFacts>;
  ratings?: Record<string, RatingFacts>;
}

export interface RunFacts extends FactsBase {
  status: 'completed' | 'failed' | 'cancelled';
  endedAt: string;
  inputTokens: number;
  outputTokens: number;
  toolCalls: number;
  toolFailures: number;
}

/** Which facts item: its workspace, agent and sort key, and when what it describes started (its day). */
export interface FactsKey {
  workspaceId: string;
  agentId: string;
  sk: string;
  startedAt: Date;
}

/** What one event writes: attributes set every time (`set`), set only while absent (`first`), one map entry (`entry`). */
export interface FactsWrite {
  set?: Record<string, unknown>;
  first?: Record<string, unknown>;
  entry?: { map: 'answers' | 'ratings'; id: string; value: object };
}

/** Facts are kept about 13 months (DynamoDB's TTL; a range never reaches further back than that). */
const KEEP_SECONDS = 400 * 24 * 60 * 60;

const table = (deps: Deps) => deps.store.table('insights');

/**
 * Writes one event into its facts item, creating it with its day. A map entry is set into the map when the map exists,
 * else the map is made with it; whichever condition fails first is tried the other way (two writers at once).
 */
export async function writeFacts(deps: Deps, key: FactsKey, write: FactsWrite): Promise<void> {
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {
    ':ws': key.workspaceId,
    ':daySk': `${key.startedAt.toISOString().slice(0, 10)}#${key.sk}`,
    ':startedAt': key.startedAt.toISOString(),
    ':expires': Math.floor(key.startedAt.getTime() / 1000) + KEEP_SECONDS,
  };
  const sets = [
    'workspaceId = :ws',
    'daySk = if_not_exists(daySk, :daySk)',
    'startedAt = if_not_exists(startedAt, :startedAt)',
    'expiresAtEpoch = if_not_exists(expiresAtEpoch, :expires)',
  ];
  for (const [index, [name, value]] of Object.entries(write.set ?? {}).entries()) {
    names[`#s${index}`] = name;
    values[`:s${index}`] = value;
    sets.push(`#s${index} = :s${index}`);
  }
  for (const [index, [name, value]] of Object.entries(write.first ?? {}).entries()) {
    names[`#f${index}`] = name;
    values[`:f${index}`] = value;
    sets.push(`#f${index} = if_not_exists(#f${index}, :f${index})`);
  }
  const itemKey = { agentId: key.agentId, sk: key.sk };
  const update = (extra: string, condition?: string, more: { names?: Record<string, string>; values?: Record<string, unknown> } = {}) =>
    updateIf(deps.store, table(deps), itemKey, {
      UpdateExpression: `SET ${[...sets, ...(extra ? [extra] : [])].join(', ')}`,
      ...(condition ? { ConditionExpression: condition } : {}),
      ExpressionAttributeNames: { ...names, ...more.names },
      ExpressionAttributeValues: { ...values, ...more.values },
    });
  if (!write.entry) {
    await update('');
    return;
  }
  const { map, id, value } = write.entry;
  const entryNames = { '#map': map, '#id': id };
  for (let attempt = 0; attempt < 3; attempt += 1) {
    if (await update('#map.#id = :entry', 'attribute_exists(#map)', { names: entryNames, values: { ':entry': value } })) return;
    if (await update('#map = :map', 'attribute_not_exists(#map)', { names: { '#map': map }, values: { ':map': { [id]: value } } })) return;
  }
  throw new Error(`insights: the ${map} entry ${id} of ${key.sk} could not be written`);
}

/** One facts item, read consistently, or undefined. */
export const readFacts = (deps: Deps, agentId: string, sk: string): Promise<ConversationFacts | undefined> =>
  readItem(deps.store, table(deps), { agentId, sk });

/** Replaces a conversation's ratings, if its facts item is still there. */
export async function replaceRatings(deps: Deps, agentId: string, sk: string, ratings: Record<string, RatingFacts>): Promise<void> {
  await updateIf(
    deps.store,
    table(deps),
    { agentId, sk },
    { UpdateExpression: 'SET ratings = :ratings', ConditionExpression: 'attribute_exists(sk)', ExpressionAttributeValues: { ':ratings': ratings } },
  );
}

/** An agent's facts items of the days `from` to `to` (YYYY-MM-DD, inclusive), every page, through the byDay index. */
export const queryFacts = (deps: Deps, agentId: string, from: string, to: string): Promise<(ConversationFacts | RunFacts)[]> =>
  queryAll(deps.store, {
    TableName: table(deps),
    IndexName: 'byDay',
    KeyConditionExpression: 'agentId = :agent AND daySk BETWEEN :from AND :to',
    ExpressionAttributeValues: { ':agent': agentId, ':from': from, ':to': `${to}#~` },
  });
