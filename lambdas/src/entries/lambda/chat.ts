import { depsFromEnv } from './deps-from-env';
import { toLambdaStreamingHandler } from '../../infra/http/streaming';
import { resolveModel } from '../../infra/model';
import { createWidgetChatHandler } from '../../surfaces/widget/chat-handler';

/** Lambda entry of the widget chat: a Function URL with RESPONSE_STREAM, answering in server-sent events. */
const deps = await depsFromEnv();
export const handler = toLambdaStreamingHandler(createWidgetChatHandler(deps, { model: resolveModel(deps.config.model) }));
