import { emailSkill } from '../skills/builtin/email';
import { skillFunctionUrlHandler } from '../skills/function-url';

/** Lambda entry of the built-in email skill (a Function URL; the platform calls its POST /mcp). */
export const handler = skillFunctionUrlHandler(emailSkill);
