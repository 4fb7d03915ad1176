import { createConversationsApiHandler } from '../../surfaces/rest-api/conversations-api';
import { storeDepsFromEnv } from './deps-from-env';
import { withInboundMail } from './with-inbound-mail';
import { withMail } from './with-mail';

/** Lambda entry of the conversation endpoints (API Gateway route `ANY /{lang}/api/v1/conversations/{proxy+}`); a teammate's reply may go by e-mail, and a mail's attachments are downloaded here. */
export const handler = createConversationsApiHandler(withInboundMail(withMail(storeDepsFromEnv())));
