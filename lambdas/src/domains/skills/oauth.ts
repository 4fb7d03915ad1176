import { DomainError } from '@service/shared';
import type { Deps } from '../../infra/deps';
import type { CatalogSkill } from './catalog';
import { getSkillItem } from './repository';

/**
 * A skill whose manifest declares `oauth: { provider }` works only once the company connected that provider
 * (an item `connection#<provider>`, written by the connection flow). Until then install and use give SKILL_OAUTH_REQUIRED.
 */
export async function oauthMissing(deps: Deps, workspaceId: string, skill: CatalogSkill): Promise<DomainError | undefined> {
  if (!skill.oauthProvider) return undefined;
  if (await getSkillItem(deps, workspaceId, `connection#${skill.oauthProvider}`)) return undefined;
  return new DomainError(
    'SKILL_OAUTH_REQUIRED',
    `The skill ${skill.code} needs a ${skill.oauthProvider} connection; connect ${skill.oauthProvider} for the company first`,
  );
}
