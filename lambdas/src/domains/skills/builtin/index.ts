import { BUILTIN_SKILL_CODES, type BuiltinSkillCode } from '@service/shared';
import type { Skill } from '@service/skill-sdk';
import { calendarSkill } from './calendar';
import { contactsSkill } from './contacts';
import { emailSkill } from './email';
import { knowledgeSkill } from './knowledge';
import { tasksSkill } from './tasks';

const BY_CODE: Readonly<Record<BuiltinSkillCode, Skill>> = {
  contacts: contactsSkill,
  calendar: calendarSkill,
  tasks: tasksSkill,
  email: emailSkill,
  knowledge: knowledgeSkill,
};

/** The built-in skills (one per code of the shared list), written with the SDK like any third-party skill, by code. */
export const BUILTIN_SKILLS: ReadonlyMap<string, Skill> = new Map(BUILTIN_SKILL_CODES.map((code) => [code, BY_CODE[code]]));

export const isBuiltinSkill = (code: string): boolean => BUILTIN_SKILLS.has(code);

type BuiltinInfo = { name: string; description: string };

/** Display names and descriptions for the catalog (a skill definition carries only code and tools). */
export const BUILTIN_INFO: Readonly<Record<string, BuiltinInfo>> = {
  contacts: { name: 'Contacts', description: 'Create and look up contacts of the workspace' },
  calendar: { name: 'Calendar', description: 'Book and list calendar events' },
  tasks: { name: 'Tasks', description: 'Create and list tasks' },
  email: { name: 'E-mail', description: "Send e-mail from the agent's own address" },
  knowledge: { name: 'Knowledge', description: "Answer from the company's own website, documents and answers, with citations" },
} satisfies Record<BuiltinSkillCode, BuiltinInfo>;
