import { languageDetector } from '@service/shared/detect-language';
import type { StoredAgent } from '../../agents/agents';
import type { StoredRun } from '../runs';

/**
 * A run's conversation language, whichever door gave the command (REST, MCP, the dashboard): its instruction's, or
 * the agent's locale when the instruction is too short to tell. The same instruction always gives the same language.
 */
export const runLanguage = async (agent: StoredAgent, run: Pick<StoredRun, 'instruction'>): Promise<string> =>
  (await languageDetector()).conversationLanguage(run.instruction, [agent.locale]);
