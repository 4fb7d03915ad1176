import { createContext, type SkillContext } from './context.js';
import type { Skill } from './define-skill.js';
import { normalizeLanguage } from './language.js';
import { httpApiCaller } from './service-api.js';
import { translatorFor } from './translate.js';
import { TURN_TOKEN_HEADER, type VerifiedTurnToken } from './turn-token.js';

/** Who is calling, from the trusted headers the platform sends. */
export interface Caller {
  language: string;
  turnToken: string | undefined;
  verified: VerifiedTurnToken | undefined;
}

/**
 * Reads the language and verifies the turn token (throws TurnTokenError when one is sent and is not valid).
 * `withoutToken` is who calls when no token is sent (development mode's mock caller); by default nobody.
 */
export async function resolveCaller(
  headers: Headers,
  skill: Skill,
  verify: (token: string) => Promise<VerifiedTurnToken>,
  withoutToken?: VerifiedTurnToken,
): Promise<Caller> {
  const language = normalizeLanguage(headers.get('x-service-language'), skill.defaultLocale);
  const turnToken = headers.get(TURN_TOKEN_HEADER) ?? undefined;
  const verified = turnToken ? await verify(turnToken) : withoutToken;
  return { language, turnToken, verified };
}

/** Builds ctx for one handler run of a real (HTTP) call. */
export function callContext(skill: Skill, caller: Caller, apiUrl: string | undefined) {
  return (signal: AbortSignal): SkillContext =>
    createContext({
      skill: skill.code,
      language: caller.language,
      t: translatorFor(skill.locales, caller.language, skill.defaultLocale),
      turnToken: caller.turnToken,
      ...caller.verified,
      signal,
      apiCaller: httpApiCaller({ apiUrl, turnToken: caller.turnToken, language: caller.language, signal }),
    });
}
