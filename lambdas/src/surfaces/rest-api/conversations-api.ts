import type { Context } from 'aws-lambda';
import type { Deps } from '../../infra/deps';
import type { HttpEvent, HttpResult } from '../../infra/http/event';
import { conversationEndpoints } from './endpoints/conversations';
import { createRestPipeline } from './pipeline';

/**
 * conversations/list and conversations/get (ROUTES.conversationsApi): the same REST pipeline and credentials as the
 * Api function, in a function of their own, so that only this one may read visitors' conversations.
 */
export function createConversationsApiHandler(deps: Deps) {
  const pipeline = createRestPipeline(deps, conversationEndpoints);
  return (event: HttpEvent, context: Context): Promise<HttpResult> => pipeline(event, context);
}
