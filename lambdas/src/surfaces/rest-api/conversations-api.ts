import type { Context } from 'aws-lambda';
import type { Deps } from '../../infra/deps';
import type { HttpEvent, HttpResult } from '../../infra/http/event';
import { conversationEndpoints } from './endpoints/conversations';
import { visitorEndpoints } from './endpoints/visitors';
import { createRestPipeline } from './pipeline';

/**
 * conversations/* (ROUTES.conversationsApi) and visitors/* (ROUTES.visitorsApi: export, erase, retention): the same
 * REST pipeline and credentials as the Api function, in a function of their own, so that only this one may read
 * visitors' conversations.
 */
export function createConversationsApiHandler(deps: Deps) {
  const pipeline = createRestPipeline(deps, { ...conversationEndpoints, ...visitorEndpoints });
  return (event: HttpEvent, context: Context): Promise<HttpResult> => pipeline(event, context);
}
