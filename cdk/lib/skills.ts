/** A skill service deployed beside the platform as a SkillFunction. */
export interface SkillEntry {
  /** Construct id; also names the stack output `<id>SkillUrl`. */
  id: string;
  /** Repository-relative Lambda entry of the skill (exports `handler`); skipped while the file does not exist. */
  entry: string;
}

/**
 * Skills to deploy, one line each. The built-in skills run inside the platform's own functions; these are separate
 * services. The loyalty example deploys once skill-sdk/examples/loyalty has its Lambda entry (a Function URL
 * adapter around createSkillHandler that reads its secrets by ARN; see SKILL_SECRET_ENV).
 */
export const SKILLS: readonly SkillEntry[] = [{ id: 'Loyalty', entry: 'skill-sdk/examples/loyalty/lambda.ts' }];
