import { calendarSkill } from '../skills/builtin/calendar';
import { skillFunctionUrlHandler } from '../skills/function-url';

/** Lambda entry of the built-in calendar skill (a Function URL; the platform calls its POST /mcp). */
export const handler = skillFunctionUrlHandler(calendarSkill);
