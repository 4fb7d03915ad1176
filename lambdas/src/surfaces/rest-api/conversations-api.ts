import type { Context } from 'aws-lambda';
import type { Deps } from '../../infra/deps';
import type { HttpEvent, HttpResult } from '../../infra/http/event';
import { attachmentDownload } from './attachment-download';
import { conversationEndpoints } from './endpoints/conversations';
import { visitorEndpoints } from './endpoints/visitors';
import { evalEndpoints } from './endpoints/evals';
import { createRestPipeline } from './pipeline';
import { auditedRunner } from './middleware/audit';

/**
 * conversations/* (ROUTES.conversationsApi), visitors/* (ROUTES.visitorsApi: export, erase, retention) and evals/*
 * (ROUTES.evalsApi: saving a scenario reads a conversation, and results hold transcripts): the same REST pipeline and
 * credentials as the Api function, in a function of their own, so that only this one may read visitors' conversations.
 */
export function createConversationsApiHandler(deps: Deps) {
  const handlers = { ...conversationEndpoints, ...visitorEndpoints, ...evalEndpoints };
  // Availability, visitors' export and erasure, retention: recorded in the audit log.
  const pipeline = createRestPipeline(deps, handlers, auditedRunner(deps, handlers));
  return async (event: HttpEvent, context: Context): Promise<HttpResult> => attachmentDownload(deps, event, await pipeline(event, context));
}
