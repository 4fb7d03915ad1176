import { depsFromEnv } from './deps-from-env';
import { createWidgetConfigHandler } from '../../surfaces/widget/config-handler';

/** Lambda entry of GET /v1/agents/{agentId}/widget-config (HTTP API); CHAT_URL is the streaming chat Function URL. */
export const handler = createWidgetConfigHandler(await depsFromEnv(), process.env.CHAT_URL ? { chatBaseUrl: process.env.CHAT_URL } : {});
