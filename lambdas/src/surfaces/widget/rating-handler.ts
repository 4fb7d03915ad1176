import { ROUTES } from '@service/shared';
import { visitorsAnswer } from '../../domains/conversations/conversations';
import { recordRating } from '../../domains/insights/record';
import { hitRateLimit } from '../../domains/access/rate-limit';
import type { Deps } from '../../infra/deps';
import { readJsonBody, validated } from '../../infra/http/json-body';
import { RatingRequestSchema } from './rating-request';
import { requestIdentity } from './widget-agent';
import { widgetRoute } from './widget-route';

const METHODS = ['POST', 'OPTIONS'];
const MAX_BODY_BYTES = 8 * 1024;
/** Ratings per minute from one visitor (by source address) to one agent. */
const RATINGS_PER_MINUTE = 30;

/**
 * POST /v1/agents/{agentId}/rating: a visitor's thumbs up or down on one of the agent's answers, with an optional
 * comment (RatingRequest). Authorised as the live stream is: only the visitor's own conversation's answers (by their
 * visitor id, or as the same verified user). One rating an answer: a new one replaces it, the same one twice changes
 * nothing. 204.
 */
export function createWidgetRatingHandler(deps: Deps) {
  return widgetRoute(deps, { route: ROUTES.widgetRating, methods: METHODS, origin: 'required' }, async ({ agent, cors }, event) => {
    await hitRateLimit(deps, `widget-rating#${agent.id}#${event.requestContext.http.sourceIp}`, RATINGS_PER_MINUTE);
    const body = validated(RatingRequestSchema, readJsonBody(event, { maxBytes: MAX_BODY_BYTES }));
    const visitor = { agentId: agent.id, visitorId: body.visitorId, userId: (await requestIdentity(deps, agent, event)).userId };
    const { workspaceId } = await visitorsAnswer(deps, visitor, body.conversationId, body.messageId);
    await recordRating(deps, { workspaceId, agentId: agent.id, conversationId: body.conversationId }, body.messageId, {
      rating: body.rating,
      ...(body.comment ? { comment: body.comment } : {}),
      at: deps.now().toISOString(),
    });
    return { statusCode: 204, headers: { ...cors, 'cache-control': 'no-store' }, body: '' };
  });
}
