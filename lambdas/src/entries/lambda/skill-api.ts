import { depsFromEnv } from './deps-from-env';
import { createSkillApiHandler } from '../../surfaces/skill-callbacks/handler';

/**
 * Lambda entry of the skill-facing API: POST /{lang}/api/v1/skills/{code}/{method} (serviceApi, turn token only)
 * and POST /{lang}/api/v1/admin/{resource}/{action} (master key only). Reads SKILL_TURN_TOKEN_SECRET and SERVICE_MASTER_KEY.
 */
export const handler = createSkillApiHandler(await depsFromEnv());
