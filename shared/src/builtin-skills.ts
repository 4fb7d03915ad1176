/** The platform's own skills: each deployed as a skill service of its own (CDK) and served by the platform's code. */
export const BUILTIN_SKILL_CODES = ['contacts', 'calendar', 'tasks', 'email', 'knowledge'] as const;
export type BuiltinSkillCode = (typeof BUILTIN_SKILL_CODES)[number];
