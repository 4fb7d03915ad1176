import { storeDepsFromEnv } from './deps-from-env';
import { createWidgetHistoryHandler } from '../../surfaces/widget/history-handler';

/** Lambda entry of GET /v1/agents/{agentId}/history (HTTP API): a verified widget visitor's conversation. */
export const handler = createWidgetHistoryHandler(storeDepsFromEnv());
