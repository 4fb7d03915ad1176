import { knowledgeSkill } from '../../domains/skills/builtin/knowledge';
import { skillLambdaHandler } from '@service/skill-sdk/lambda';

/** Lambda entry of the built-in knowledge skill (a Function URL; the platform calls its POST /mcp). */
export const handler = skillLambdaHandler(knowledgeSkill);
