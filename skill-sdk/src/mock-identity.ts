import type { Skill } from './define-skill.js';
import type { VerifiedTurnToken } from './turn-token.js';

/** Identifiers of the mock caller (UUIDs, like the platform's): test contexts and development mode use them. */
export const TEST_IDS = Object.freeze({
  accountId: '00000000-0000-4000-8000-00000000a001',
  companyId: '00000000-0000-4000-8000-00000000c001',
  userId: '00000000-0000-4000-8000-00000000b001',
});

/** Development mode's caller when no turn token is sent: the test identities, owner, every capability of the skill. */
export function devIdentity(skill: Skill): VerifiedTurnToken {
  return {
    ...TEST_IDS,
    roles: ['owner'],
    capabilities: [...skill.tools.values()].map((tool) => tool.capability),
    expiresAt: Number.POSITIVE_INFINITY,
  };
}
