import { createAuthApiHandler } from '../../surfaces/rest-api/auth-api';
import { depsFromEnv } from './deps-from-env';
import { withMail } from './with-mail';

/** Lambda entry of sign-in, sessions and passkeys (API Gateway route `ANY /{lang}/api/v1/auth/{proxy+}`). */
export const handler = createAuthApiHandler(withMail(await depsFromEnv()));
