import { BUILTIN_SKILL_CODES, type BuiltinSkillCode } from '@service/shared';

/** A skill service deployed beside the platform as a SkillFunction. */
export interface SkillEntry {
  /** Construct id; also names the stack output `<id>SkillUrl`. */
  id: string;
  /** Repository-relative Lambda entry of the skill (exports `handler`); skipped while the file does not exist. */
  entry: string;
}

/** The memory of a skill function (SkillFunction) whose props name none. */
export const SKILL_MEMORY_MB = 512;

/** Example and third-party skills deployed beside the platform, each with its own generated bearer. */
export const SKILLS: readonly SkillEntry[] = [{ id: 'Loyalty', entry: 'skill-sdk/examples/loyalty/lambda.ts' }];

/**
 * The platform's own capabilities, each a skill service of its own (made with the SDK). They share one bearer the
 * platform holds, and act through the skill API with the turn tokens the runner mints.
 */
export const BUILTIN_SKILLS: readonly (SkillEntry & { code: BuiltinSkillCode })[] = BUILTIN_SKILL_CODES.map((code) => ({
  id: `Builtin${code[0]!.toUpperCase()}${code.slice(1)}`,
  code,
  entry: `lambdas/src/entries/lambda/skill-${code}.ts`,
}));
