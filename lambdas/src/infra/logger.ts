import { Logger } from '@aws-lambda-powertools/logger';

/**
 * The platform's one logger: structured JSON lines (Powertools), each with what it is about: the Lambda request id,
 * the workspace, the run or the queue message. Never a secret: no API key, turn token, bearer, session, header or
 * request body is ever passed to it (lambdas/test/logging.test.ts checks the error paths).
 */
export const logger = new Logger({ serviceName: 'service-platform' });
