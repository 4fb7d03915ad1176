import { tasksSkill } from '../skills/builtin/tasks';
import { skillFunctionUrlHandler } from '../skills/function-url';

/** Lambda entry of the built-in tasks skill (a Function URL; the platform calls its POST /mcp). */
export const handler = skillFunctionUrlHandler(tasksSkill);
