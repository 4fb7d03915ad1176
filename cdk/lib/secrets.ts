import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import type { Construct } from 'constructs';

/**
 * A random 64-character key that Secrets Manager generates at deploy time: the value never appears in the
 * template, the code or a build log. Functions receive the ARN and read the value at cold start.
 */
export function generatedSecret(scope: Construct, id: string, description: string): Secret {
  return new Secret(scope, id, {
    description,
    generateSecretString: { passwordLength: 64, excludePunctuation: true },
  });
}
