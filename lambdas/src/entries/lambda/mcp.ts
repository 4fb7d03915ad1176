import { ROUTES } from '@service/shared';
import { queueDepsFromEnv } from './deps-from-env';
import { withMail } from './with-mail';
import { matchRoute } from '../../infra/http/routes';
import { toLambdaStreamingHandler, writeResult } from '../../infra/http/streaming';
import { createMcpSurfaceHandler } from '../../surfaces/mcp/handler';
import { createRunCardAssetHandler } from '../../surfaces/mcp/run-card/assets';
import { createOAuthHandler } from '../../surfaces/oauth/handler';

/**
 * Lambda entry of the MCP access point: a Function URL with RESPONSE_STREAM (long asks outlive API Gateway's 30 s),
 * serving /mcp, the run card's files and, on the same origin (the issuer is the resource's origin), the authorization server and discovery.
 */
// withMail: a teammate's reply_conversation goes to a visitor who left an address by e-mail too.
const deps = withMail(queueDepsFromEnv());
const mcp = createMcpSurfaceHandler(deps);
const oauth = createOAuthHandler(deps);
const runCardAssets = createRunCardAssetHandler();

export const handler = toLambdaStreamingHandler(async (event, sink, context) => {
  if (matchRoute(ROUTES.mcp, event.rawPath)) return mcp(event, sink, context);
  if (matchRoute(ROUTES.mcpUi, event.rawPath)) return writeResult(sink, await runCardAssets(event));
  writeResult(sink, await oauth(event));
});
