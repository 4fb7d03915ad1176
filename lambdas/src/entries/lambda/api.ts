import { ROUTES } from '@service/shared';
import type { Context } from 'aws-lambda';
import type { HttpEvent } from '../../infra/http/event';
import { matchRoute } from '../../infra/http/routes';
import { createAgentListHandler } from '../../surfaces/rest-api/agent-list';
import { createApiHandler } from '../../surfaces/rest-api/handler';
import { depsFromEnv } from './deps-from-env';
import { withMail } from './with-mail';

const deps = withMail(await depsFromEnv());
const restApi = createApiHandler(deps);
const agentList = createAgentListHandler(deps);

/**
 * Lambda entry of the REST API (API Gateway HTTP API route `ANY /{lang}/api/v1/{proxy+}`) and of spec 1's agent list
 * (`ANY /v1/agents`), which admits the same API keys with the same grants.
 */
export const handler = (event: HttpEvent, context: Context) => (matchRoute(ROUTES.agentList, event.rawPath) ? agentList(event) : restApi(event, context));
