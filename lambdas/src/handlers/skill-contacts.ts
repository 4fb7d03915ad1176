import { contactsSkill } from '../skills/builtin/contacts';
import { skillFunctionUrlHandler } from '../skills/function-url';

/** Lambda entry of the built-in contacts skill (a Function URL; the platform calls its POST /mcp). */
export const handler = skillFunctionUrlHandler(contactsSkill);
