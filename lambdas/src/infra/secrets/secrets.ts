import { readFromSecretsManager, type SecretReader } from '@service/skill-sdk/lambda';

/**
 * The stack passes secrets by ARN, never by value. At cold start each ARN is read from Secrets Manager into the
 * setting the code reads; a setting given directly (tests, the local platform) wins.
 */
const SECRET_SETTINGS: Record<string, string> = {
  TURN_TOKEN_SECRET_ARN: 'SKILL_TURN_TOKEN_SECRET',
  MASTER_KEY_SECRET_ARN: 'SERVICE_MASTER_KEY',
  SKILL_BEARER_SECRET_ARN: 'SKILL_BEARER',
};

export async function loadSecretsIntoEnv(env: NodeJS.ProcessEnv = process.env, read: SecretReader = readFromSecretsManager): Promise<void> {
  await Promise.all(
    Object.entries(SECRET_SETTINGS).map(async ([arnSetting, setting]) => {
      const arn = env[arnSetting];
      if (arn && !env[setting]) env[setting] = await read(arn);
    }),
  );
}
