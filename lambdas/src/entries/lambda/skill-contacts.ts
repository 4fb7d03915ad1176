import { contactsSkill } from '../../domains/skills/builtin/contacts';
import { skillLambdaHandler } from '@service/skill-sdk/lambda';

/** Lambda entry of the built-in contacts skill (a Function URL; the platform calls its POST /mcp). */
export const handler = skillLambdaHandler(contactsSkill);
