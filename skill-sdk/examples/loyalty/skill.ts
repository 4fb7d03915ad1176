/**
 * Example skill: a loyalty programme. The points live on the platform (reached with serviceApi); the skill
 * adds the rules (tiers) and speaks the customer's language (locales/en.json, locales/tr.json, imported as JSON modules).
 */
import { defineSkill, serviceApi, SkillError, z } from '@service/skill-sdk';
// Locales as JSON modules, not a localesDir: a bundler (the Lambda build) inlines them, a directory would not exist there.
import en from './locales/en.json' with { type: 'json' };
import tr from './locales/tr.json' with { type: 'json' };

const TIERS = [
  { tier: 'gold', from: 1000 },
  { tier: 'silver', from: 250 },
  { tier: 'bronze', from: 0 },
] as const;

export function tierOf(points: number): (typeof TIERS)[number]['tier'] {
  return (TIERS.find((t) => points >= t.from) ?? TIERS[2]).tier;
}

const balanceSchema = z.object({ points: z.number().int().nonnegative() });

export const loyalty = defineSkill({
  code: 'loyalty',
  version: '1.0.0',
  defaultLocale: 'en',
  locales: { en, tr },
  tools: {
    balance: {
      description: "The customer's loyalty points and tier",
      annotations: { readOnlyHint: true },
      handler: async (_input, ctx) => {
        if (!ctx.userId) throw new SkillError('NO_CUSTOMER', ctx.t('errors.no_customer'));
        const { points } = balanceSchema.parse(await serviceApi(ctx, 'skills/loyalty/balance', {}));
        const tier = tierOf(points);
        return { points, tier, message: ctx.t('balance', { points, tier: ctx.t(`tiers.${tier}`) }) };
      },
    },
    award: {
      description: 'Give the customer bonus points, e.g. as an apology for a late delivery',
      input: {
        points: z.number().int().positive().max(500).describe('Points to add, at most 500'),
        reason: z.string().min(3).max(200).describe('Why, in a few words; shown to the customer'),
      },
      roles: ['owner', 'admin'],
      annotations: { destructiveHint: false, idempotentHint: false },
      handler: async ({ points, reason }, ctx) => {
        if (!ctx.userId) throw new SkillError('NO_CUSTOMER', ctx.t('errors.no_customer'));
        const { points: balance } = balanceSchema.parse(await serviceApi(ctx, 'skills/loyalty/award', { points, reason }));
        return { balance, tier: tierOf(balance), message: ctx.t('awarded', { points, reason, balance }) };
      },
    },
  },
});
