import { createApiHandler } from '../../surfaces/rest-api/handler';
import { depsFromEnv } from './deps-from-env';
import { withMail } from './with-mail';

/** Lambda entry of the REST API (API Gateway HTTP API route `ANY /{lang}/api/v1/{proxy+}`). */
export const handler = createApiHandler(withMail(await depsFromEnv()));
