import { createSkillHandler, type Skill, type SkillServerOptions } from '@service/skill-sdk';
import type { HttpEvent, HttpResult } from '../http/event';
import { rawBody } from '../http/event';

/**
 * A skill as a Lambda behind a Function URL: the SDK's host-neutral handler (the same routes startSkill serves)
 * fed from the Function URL event. Settings come from the environment (SKILL_BEARER, SKILL_TURN_TOKEN_SECRET,
 * SERVICE_API_URL); with NODE_ENV=production the SDK refuses to start without its secrets.
 */
export function skillFunctionUrlHandler(skill: Skill, options: SkillServerOptions = {}) {
  const handle = createSkillHandler(skill, options);
  return async (event: HttpEvent): Promise<HttpResult> => {
    const headers = new Headers();
    for (const [name, value] of Object.entries(event.headers)) if (value !== undefined) headers.set(name, value);
    const response = await handle({
      method: event.requestContext.http.method,
      path: `${event.rawPath}${event.rawQueryString ? `?${event.rawQueryString}` : ''}`,
      headers,
      ...(event.body !== undefined ? { body: rawBody(event) } : {}),
    });
    return { statusCode: response.status, headers: response.headers, body: response.body };
  };
}
