import { tasksSkill } from '../../domains/skills/builtin/tasks';
import { skillLambdaHandler } from '@service/skill-sdk/lambda';

/** Lambda entry of the built-in tasks skill (a Function URL; the platform calls its POST /mcp). */
export const handler = skillLambdaHandler(tasksSkill);
