import type { Skill } from '@service/skill-sdk';
import { calendarSkill } from './calendar';
import { contactsSkill } from './contacts';
import { emailSkill } from './email';
import { tasksSkill } from './tasks';

/** The built-in skills, written with the SDK like any third-party skill, by code. */
export const BUILTIN_SKILLS: ReadonlyMap<string, Skill> = new Map([contactsSkill, calendarSkill, tasksSkill, emailSkill].map((skill) => [skill.code, skill]));

export const isBuiltinSkill = (code: string): boolean => BUILTIN_SKILLS.has(code);

/** Display names and descriptions for the catalog (a skill definition carries only code and tools). */
export const BUILTIN_INFO: Readonly<Record<string, { name: string; description: string }>> = {
  contacts: { name: 'Contacts', description: 'Create and look up contacts of the workspace' },
  calendar: { name: 'Calendar', description: 'Book and list calendar events' },
  tasks: { name: 'Tasks', description: 'Create and list tasks' },
  email: { name: 'E-mail', description: "Send e-mail from the agent's own address" },
};
