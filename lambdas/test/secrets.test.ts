import { describe, expect, it } from 'vitest';
import { loadSecretsIntoEnv } from '../src/infra/secrets/secrets';

describe('secrets at cold start', () => {
  it('reads each secret the stack names by ARN into its setting, and never overrides a setting given directly', async () => {
    const env: NodeJS.ProcessEnv = {
      TURN_TOKEN_SECRET_ARN: 'arn:turn',
      MASTER_KEY_SECRET_ARN: 'arn:master',
      SKILL_BEARER: 'given-directly',
      SKILL_BEARER_SECRET_ARN: 'arn:bearer',
    };
    const read: string[] = [];
    await loadSecretsIntoEnv(env, async (arn) => (read.push(arn), `value of ${arn}`));
    expect(env.SKILL_TURN_TOKEN_SECRET).toBe('value of arn:turn');
    expect(env.SERVICE_MASTER_KEY).toBe('value of arn:master');
    expect(env.SKILL_BEARER).toBe('given-directly');
    expect(read.sort()).toEqual(['arn:master', 'arn:turn']);
  });
});
