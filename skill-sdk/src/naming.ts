/**
 * How skills and their tools are named, for skills and for the platform alike: a skill code or action is lowercase
 * letters, digits, `_` or `-`, starting with a letter; the model sees a tool as `code__action` and grants name its
 * capability `code.action`, so neither separator may appear inside a name.
 */
export const SKILL_NAME_PATTERN = /^[a-z][a-z0-9_-]{0,62}$/;

/** A valid skill code or action name. */
export const isSkillName = (value: string): boolean => SKILL_NAME_PATTERN.test(value) && !value.includes('__');

/** The model-facing tool name of an action: `code__action`. */
export const toolNameOf = (code: string, action: string): string => `${code}__${action}`;

/** The capability a grant names for an action: `code.action`. */
export const capabilityOf = (code: string, action: string): string => `${code}.${action}`;
