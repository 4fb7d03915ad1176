import { randomBase62 } from '@service/shared';
import { startSkill, type RunningSkill } from '@service/skill-sdk';
import { BUILTIN_SKILLS } from '../../domains/skills/builtin';
import type { SkillHost } from '../../infra/config/skill-host';

export interface RunningBuiltins {
  host: SkillHost;
  close(): Promise<void>;
}

/**
 * Starts every built-in skill with the SDK's startSkill on a free loopback port, as its own HTTP service, with a
 * bearer and a turn-token key made for this platform start. `apiUrl` is where their serviceApi calls go.
 * The master key is the operator's SERVICE_MASTER_KEY or, without one, a random key the administrative routes
 * accept for this start only (it is never printed; set SERVICE_MASTER_KEY to use those routes locally).
 */
export async function startBuiltinSkills(apiUrl: string, masterKey: string | undefined): Promise<RunningBuiltins> {
  const bearer = randomBase62(40);
  const turnTokenSecret = randomBase62(48);
  const running: RunningSkill[] = [];
  try {
    for (const skill of BUILTIN_SKILLS.values()) {
      running.push(await startSkill(skill, { port: 0, host: '127.0.0.1', bearer, turnTokenSecret, apiUrl, production: false }));
    }
  } catch (error) {
    await Promise.all(running.map((skill) => skill.close()));
    throw error;
  }
  const codes = [...BUILTIN_SKILLS.keys()];
  return {
    host: {
      turnTokenSecret,
      masterKey: masterKey || randomBase62(48),
      builtins: Object.fromEntries(running.map((skill, index) => [codes[index]!, { mcpUrl: `${skill.url}/mcp`, bearer }])),
    },
    close: async () => {
      await Promise.all(running.map((skill) => skill.close()));
    },
  };
}
