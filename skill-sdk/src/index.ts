export { z } from 'zod';
export { defineSkill } from './define-skill';
export type { InputShape, Skill, SkillDefinition, SkillTool, ToolAnnotations, ToolDefinition, ToolInput, EventHandler } from './define-skill';
export { startSkill, type RunningSkill } from './server';
export { createSkillHandler, type SkillHttpHandler, type SkillHttpRequest, type SkillHttpResponse } from './handler';
export type { SkillServerOptions } from './config';
export type { SkillContext } from './context';
export type { Translate, Messages, Locales } from './translate';
export { serviceApi, ServiceApiError } from './service-api';
export { SkillError } from './errors';
export { DEFAULT_LIMITS, type ToolLimits, type ToolResult, type Logger } from './run-tool';
export {
  mintTurnToken,
  verifyTurnToken,
  TurnTokenError,
  TURN_TOKEN_TTL_SECONDS,
  type TurnTokenSubject,
  type TurnTokenOptions,
  type VerifiedTurnToken,
} from './turn-token';
export { manifestSchema, type SkillManifest } from './manifest';
export { SDK_VERSION } from './version';
