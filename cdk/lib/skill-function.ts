import { FunctionUrlAuthType, type FunctionUrl, type Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import type { IGrantable } from 'aws-cdk-lib/aws-iam';
import type { ISecret, Secret } from 'aws-cdk-lib/aws-secretsmanager';
import { Construct } from 'constructs';
import { createNodeFunction } from './node-function';
import { generatedSecret } from './secrets';
import { SKILL_MEMORY_MB } from './skills';

/** Environment variables through which a deployed skill finds its secrets (values are read at cold start). */
export const SKILL_SECRET_ENV = {
  bearer: 'SKILL_BEARER_SECRET_ARN',
  turnTokenKey: 'SKILL_TURN_TOKEN_SECRET_ARN',
} as const;

export interface SkillFunctionProps {
  /** Absolute path of the skill's Lambda entry file (it exports `handler`). */
  entry: string;
  /** The platform's turn-token signing key; the skill verifies turn tokens with it. */
  turnTokenKey: ISecret;
  /** The bearer to guard the skill with; by default one is generated for this skill alone. */
  bearer?: Secret;
  timeoutSeconds?: number;
  memoryMb?: number;
  /** Non-secret settings, e.g. SERVICE_API_URL. */
  environment?: Record<string, string>;
}

/**
 * A skill service (spec 3) as a Lambda behind a public Function URL. The URL needs no IAM auth because the skill
 * checks its own bearer on /mcp and /events; that bearer is generated in Secrets Manager, as is the turn-token key.
 */
export class SkillFunction extends Construct {
  readonly function: LambdaFunction;
  readonly functionUrl: FunctionUrl;
  /** The bearer the platform sends to this skill. */
  readonly bearer: Secret;

  constructor(scope: Construct, id: string, props: SkillFunctionProps) {
    super(scope, id);
    this.bearer = props.bearer ?? generatedSecret(this, 'Bearer', `Bearer guarding the /mcp and /events routes of skill ${id}`);
    this.function = createNodeFunction(this, 'Function', {
      entry: props.entry,
      timeoutSeconds: props.timeoutSeconds ?? 30,
      memoryMb: props.memoryMb ?? SKILL_MEMORY_MB,
      environment: {
        ...props.environment,
        // The SDK refuses to start without its bearer and turn-token key in production.
        NODE_ENV: 'production',
        [SKILL_SECRET_ENV.bearer]: this.bearer.secretArn,
        [SKILL_SECRET_ENV.turnTokenKey]: props.turnTokenKey.secretArn,
      },
    });
    this.bearer.grantRead(this.function);
    props.turnTokenKey.grantRead(this.function);
    this.functionUrl = this.function.addFunctionUrl({ authType: FunctionUrlAuthType.NONE });
  }

  /** Lets a platform function read this skill's bearer so it can call the skill. */
  grantCall(caller: IGrantable): void {
    this.bearer.grantRead(caller);
  }
}
