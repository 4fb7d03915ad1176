import type { Deps } from '../../infra/deps';
import { querySources } from './source-repository';
import { availableTo } from './search';

/** The origins of the websites an agent's knowledge comes from (its website sources): pages of its own site, which an answer may link. */
export async function knowledgeSiteOrigins(deps: Deps, workspaceId: string, agentId: string): Promise<string[]> {
  const sources = await querySources(deps, workspaceId);
  return sources.flatMap((source) => {
    if (source.type !== 'website' || !source.url || !availableTo(source, agentId)) return [];
    try {
      return [new URL(source.url).origin];
    } catch {
      return [];
    }
  });
}
