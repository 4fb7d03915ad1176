/** A skill service deployed beside the platform as a SkillFunction. */
export interface SkillEntry {
  /** Construct id; also names the stack output `<id>SkillUrl`. */
  id: string;
  /** Repository-relative Lambda entry of the skill (exports `handler`); skipped while the file does not exist. */
  entry: string;
}

/**
 * Skills to deploy, one line each, e.g. `{ id: 'Hello', entry: 'skill-sdk/examples/hello/lambda.ts' }`.
 * Empty until skill-sdk/examples has a Lambda entry; the built-in skills run inside the platform's own functions.
 */
export const SKILLS: readonly SkillEntry[] = [];
