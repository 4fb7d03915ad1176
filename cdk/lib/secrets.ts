import { Validations } from 'aws-cdk-lib';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import type { Construct } from 'constructs';

/**
 * A random 64-character key that Secrets Manager generates at deploy time: the value never appears in the
 * template, the code or a build log. Functions receive the ARN and read the value at cold start.
 */
export function generatedSecret(scope: Construct, id: string, description: string): Secret {
  const secret = new Secret(scope, id, {
    description,
    generateSecretString: { passwordLength: 64, excludePunctuation: true },
  });
  Validations.of(secret).acknowledge({
    id: 'AwsSolutions-SMG4',
    reason:
      'Signing keys and bearers read once per cold start: a scheduled rotation would leave warm functions and skills on the old value. Rotated by hand (cdk/README.md, "Rotating a secret")',
  });
  return secret;
}
