import { emailSkill } from '../../domains/skills/builtin/email';
import { skillLambdaHandler } from '@service/skill-sdk/lambda';

/** Lambda entry of the built-in email skill (a Function URL; the platform calls its POST /mcp). */
export const handler = skillLambdaHandler(emailSkill);
