import { calendarSkill } from '../../domains/skills/builtin/calendar';
import { skillLambdaHandler } from '@service/skill-sdk/lambda';

/** Lambda entry of the built-in calendar skill (a Function URL; the platform calls its POST /mcp). */
export const handler = skillLambdaHandler(calendarSkill);
