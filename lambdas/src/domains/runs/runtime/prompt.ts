import { replyLanguageLine } from '@service/shared';
import type { StoredAgent } from '../../agents/agents';
import type { StoredRun } from '../runs';
import { knowledgeRules } from './run-sources';

const AUTONOMY_RULES = {
  full: 'You may perform real actions with your tools (send e-mail, create records) when the instruction asks for them.',
  read_only:
    'You may read and answer, but actions that change something are not performed in this run: when you call such a tool it ' +
    'comes back as pending approval, and you say what you would do.',
  confirm:
    'You may read freely. Before an action that changes something runs, a person approves or rejects it: when you call such a ' +
    'tool, first say in one sentence why you want to. A rejected action did not happen; carry on without it.',
} as const;

/**
 * The system prompt of a run: persona, role, autonomy, today, the conversation language, how to answer from the
 * company's knowledge when the run may search it, and the caller's `data` as a JSON context block.
 */
export function runSystemPrompt(agent: StoredAgent, run: StoredRun, { now, language, knowledge }: { now: Date; language: string; knowledge: boolean }): string {
  return [
    agent.persona,
    `You are ${agent.name}, ${agent.role}. Your own e-mail address is ${agent.email}.`,
    `Autonomy: ${run.autonomy}. ${AUTONOMY_RULES[run.autonomy]}`,
    `Today is ${now.toISOString().slice(0, 10)}.`,
    replyLanguageLine(language),
    ...(knowledge ? [knowledgeRules()] : []),
    ...(run.data ? [`Context data supplied by the caller (JSON): ${JSON.stringify(run.data)}`] : []),
  ].join('\n');
}
