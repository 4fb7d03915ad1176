import { storeDepsFromEnv, withSecrets } from './deps-from-env';
import { withSkillHost } from './with-skill-host';
import { toLambdaStreamingHandler } from '../../infra/http/streaming';
import { resolveModel } from '../../infra/model';
import { createWidgetChatHandler } from '../../surfaces/widget/chat-handler';

/**
 * Lambda entry of the widget chat: a Function URL with RESPONSE_STREAM, answering in server-sent events. Its secrets
 * sign the turn tokens of the agent's skills and open the built-in ones; it sends to no queue.
 */
const deps = withSkillHost(await withSecrets(storeDepsFromEnv));
export const handler = toLambdaStreamingHandler(createWidgetChatHandler(deps, { model: resolveModel(deps.config.model) }));
