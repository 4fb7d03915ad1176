import { createHash } from 'node:crypto';
import { DomainError, KNOWLEDGE_LIMITS, randomBase62, type DataOf } from '@service/shared';
import type { Deps } from '../../infra/deps';
import { logger } from '../../infra/logger';
import { countAsked, deleteUnanswered, queryUnanswered, type StoredUnanswered } from './unanswered-repository';

const RETENTION_SECONDS = KNOWLEDGE_LIMITS.unansweredRetentionDays * 24 * 60 * 60;

/**
 * What tells two questions apart once case, accents, punctuation and spacing are set aside: "How do I get a REFUND?"
 * and "how do i get a refund" are one question.
 */
export const normalisedQuestion = (text: string): string =>
  text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();

const textKeyOf = (normalised: string) => createHash('sha256').update(normalised).digest('base64url').slice(0, 32);

/** The words an agent is told to answer with when the knowledge has nothing (knowledgeRules), in the languages the platform's own replies speak. */
const DOES_NOT_KNOW = [/\bI (?:do not|don['’]t) know\b/i, /\bbilmiyorum\b/iu, /\bweiß ich nicht\b/iu, /\bno lo sé(?!\p{L})/iu];

/** Whether an answer says it does not know (it then rests on no source). */
export const saysItDoesNotKnow = (answer: string): boolean => DOES_NOT_KNOW.some((pattern) => pattern.test(answer));

/**
 * Whether a turn that could search the knowledge left the question unanswered: it searched and no passage came back
 * (nothing in the index matched), or the agent's answer says it does not know (it found passages, none about it).
 */
export const leftUnanswered = (turn: KnowledgeTurn): boolean => (turn.searched && turn.passages === 0) || saysItDoesNotKnow(turn.answer);

/** A turn of an agent that may search the knowledge: whether it searched, how many passages came back, what it answered. */
export interface KnowledgeTurn {
  searched: boolean;
  passages: number;
  answer: string;
}

interface AskedQuestion {
  workspaceId: string;
  agentId: string;
  question: string;
  language: string | undefined;
}

/**
 * After a turn (a widget reply, a run): records its question when the knowledge left it unanswered. Recording is a
 * side note: a failure is logged, never the turn's failure.
 */
export async function noteIfUnanswered(deps: Deps, turn: KnowledgeTurn, asked: AskedQuestion): Promise<void> {
  if (!leftUnanswered(turn)) return;
  await noteUnanswered(deps, asked).catch((error: unknown) =>
    logger.error('an unanswered question could not be recorded', { workspaceId: asked.workspaceId, agentId: asked.agentId, error }),
  );
}

/** Records a question the knowledge could not answer: its text, language and agent, never who asked. */
export async function noteUnanswered(deps: Deps, asked: AskedQuestion): Promise<void> {
  const text = asked.question.replace(/\s+/g, ' ').trim().slice(0, KNOWLEDGE_LIMITS.maxUnansweredChars);
  const normalised = normalisedQuestion(text);
  if (!normalised) return;
  const now = deps.now();
  await countAsked(
    deps,
    {
      workspaceId: asked.workspaceId,
      id: `unq_${randomBase62(24, `${asked.agentId}\n${normalised}`)}`,
      agentId: asked.agentId,
      textKey: textKeyOf(normalised),
      text,
      language: asked.language ?? 'und',
      expiresAtEpoch: Math.floor(now.getTime() / 1000) + RETENTION_SECONDS,
    },
    now,
  );
}

const live = (deps: Deps, items: StoredUnanswered[]) => items.filter((item) => item.expiresAtEpoch * 1000 > deps.now().getTime());

type ApiQuestion = DataOf<'knowledgeUnansweredList'>['questions'][number];
const toApiQuestion = (item: StoredUnanswered): ApiQuestion => ({
  id: item.id,
  agent_id: item.agentId,
  text: item.text,
  language: item.language,
  count: item.count,
  first_asked_at: item.firstAskedAt,
  last_asked_at: item.lastAskedAt,
});

/** The workspace's unanswered questions (of one agent, or all), most asked first, then the most recently asked. */
export async function listUnanswered(deps: Deps, workspaceId: string, query: { agent_id?: string; limit: number }): Promise<ApiQuestion[]> {
  return live(deps, await queryUnanswered(deps, workspaceId))
    .filter((item) => !query.agent_id || item.agentId === query.agent_id)
    .sort((a, b) => b.count - a.count || b.lastAskedAt.localeCompare(a.lastAskedAt))
    .slice(0, query.limit)
    .map(toApiQuestion);
}

export async function dismissUnanswered(deps: Deps, workspaceId: string, id: string): Promise<void> {
  if (!(await deleteUnanswered(deps, workspaceId, id)))
    throw new DomainError('NOT_FOUND', `No unanswered question ${id} in this workspace`, { field: 'question_id' });
}

/** An answer was written: the question it answers (by id, and every question of the same normalised text) leaves the list. */
export async function resolveUnanswered(deps: Deps, workspaceId: string, question: string, unansweredId: string | undefined): Promise<void> {
  const textKey = textKeyOf(normalisedQuestion(question));
  const answered = (await queryUnanswered(deps, workspaceId)).filter((item) => item.id === unansweredId || item.textKey === textKey);
  await Promise.all(answered.map((item) => deleteUnanswered(deps, workspaceId, item.id)));
}
