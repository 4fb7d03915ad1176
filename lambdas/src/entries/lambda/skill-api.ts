import { ROUTES } from '@service/shared';
import type { HttpEvent } from '../../infra/http/event';
import { matchRoute } from '../../infra/http/routes';
import { createOperatorApiHandler } from '../../surfaces/operator-api/handler';
import { createSkillCallbacksHandler } from '../../surfaces/skill-callbacks/handler';
import { depsFromEnv } from './deps-from-env';
import { withMail } from './with-mail';
import { withSkillHost } from './with-skill-host';

const deps = withSkillHost(withMail(await depsFromEnv()));
const operatorApi = createOperatorApiHandler(deps);
const skillCallbacks = createSkillCallbacksHandler(deps);

/**
 * One Lambda for two surfaces that share its secrets: the skills' callbacks (ROUTES.skillCallbacks, turn token only)
 * and the operator API (ROUTES.operatorApi, master key only). Reads SKILL_TURN_TOKEN_SECRET and SERVICE_MASTER_KEY.
 */
export const handler = (event: HttpEvent) => (matchRoute(ROUTES.operatorApi, event.rawPath) ? operatorApi : skillCallbacks)(event);
