export { z } from 'zod';
export { defineSkill } from './define-skill.js';
export type { InputShape, Skill, SkillDefinition, SkillTool, ToolAnnotations, ToolDefinition, ToolInput, EventHandler } from './define-skill.js';
export { startSkill, type RunningSkill } from './server.js';
export { createSkillHandler, type SkillHttpHandler, type SkillHttpRequest, type SkillHttpResponse } from './handler.js';
export type { SkillServerOptions } from './config.js';
export type { SkillContext } from './context.js';
export type { Translate, Messages, Locales } from './translate.js';
export { serviceApi, ServiceApiError } from './service-api.js';
export { SkillError } from './errors.js';
export { DEFAULT_LIMITS, type ToolLimits, type ToolResult, type Logger } from './run-tool.js';
export { SKILL_NAME_PATTERN, isSkillName, toolNameOf, capabilityOf } from './naming.js';
export {
  TURN_TOKEN_HEADER,
  mintTurnToken,
  verifyTurnToken,
  TurnTokenError,
  TURN_TOKEN_TTL_SECONDS,
  type TurnTokenSubject,
  type TurnTokenOptions,
  type VerifiedTurnToken,
} from './turn-token.js';
export { manifestSchema, type SkillManifest } from './manifest.js';
export { SDK_VERSION } from './version.js';
