import { createConversationsApiHandler } from '../../surfaces/rest-api/conversations-api';
import { storeDepsFromEnv } from './deps-from-env';

/** Lambda entry of the conversation endpoints (API Gateway route `ANY /{lang}/api/v1/conversations/{proxy+}`). */
export const handler = createConversationsApiHandler(storeDepsFromEnv());
