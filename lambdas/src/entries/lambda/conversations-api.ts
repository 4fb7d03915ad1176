import { createConversationsApiHandler } from '../../surfaces/rest-api/conversations-api';
import { storeDepsFromEnv } from './deps-from-env';
import { withMail } from './with-mail';

/** Lambda entry of the conversation endpoints (API Gateway route `ANY /{lang}/api/v1/conversations/{proxy+}`); a teammate's reply may go by e-mail. */
export const handler = createConversationsApiHandler(withMail(storeDepsFromEnv()));
