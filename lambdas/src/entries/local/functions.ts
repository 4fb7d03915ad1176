import type { Context } from 'aws-lambda';
import { createApiHandler } from '../../surfaces/rest-api/handler';
import type { Deps } from '../../infra/deps';
import type { HttpEvent, HttpResult } from '../../infra/http/event';
import type { StreamingHandler } from '../../infra/http/streaming';
import type { LanguageModel } from 'ai';
import { createSkillApiHandler } from '../../surfaces/skill-callbacks/handler';
import { isSkillApiPath } from '../../surfaces/skill-callbacks/paths';
import { createWidgetChatHandler } from '../../surfaces/widget/chat-handler';
import { createWidgetConfigHandler } from '../../surfaces/widget/config-handler';
import { isWidgetChatPath, isWidgetConfigPath } from '../../surfaces/widget/paths';

/**
 * The HTTP functions of the platform, as API Gateway and Function URLs route to them in AWS.
 * The local server tries them in order; the first whose `match` accepts the path gets the request.
 */
export type LocalFunction =
  | { name: string; match: (path: string) => boolean; kind: 'buffered'; handler: (event: HttpEvent, context: Context) => Promise<HttpResult> }
  | { name: string; match: (path: string) => boolean; kind: 'streaming'; handler: StreamingHandler };

export function createLocalFunctions(deps: Deps, runtime: { model: LanguageModel }): LocalFunction[] {
  return [
    { name: 'skill-api', kind: 'buffered', match: isSkillApiPath, handler: createSkillApiHandler(deps) },
    { name: 'api', kind: 'buffered', match: (path) => /^\/[a-z]{2}\/api\//.test(path), handler: createApiHandler(deps) },
    { name: 'widget-config', kind: 'buffered', match: isWidgetConfigPath, handler: createWidgetConfigHandler(deps) },
    { name: 'widget-chat', kind: 'streaming', match: isWidgetChatPath, handler: createWidgetChatHandler(deps, { model: runtime.model }) },
  ];
}
