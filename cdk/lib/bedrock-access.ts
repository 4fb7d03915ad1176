import { Stack, Validations } from 'aws-cdk-lib';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';

/** Geography prefixes of cross-region inference profiles: `eu.anthropic.claude-…` routes to `anthropic.claude-…`. */
const PROFILE_PREFIX = /^(?:us|us-gov|eu|apac|jp|au|ca|global)\./;

/**
 * Lets a function invoke exactly the Bedrock model of its MODEL setting (`bedrock:<model id>`), nothing when MODEL is
 * not a Bedrock model (the offline default or an OpenAI-compatible endpoint). A cross-region inference profile needs
 * the profile in this region and its model in every region the profile routes to, hence the one region wildcard.
 */
export function grantBedrockModel(fn: IFunction, model: string | undefined): void {
  if (!model?.startsWith('bedrock:')) return;
  const { partition, region, account } = Stack.of(fn);
  const modelId = model.slice('bedrock:'.length);
  const profile = PROFILE_PREFIX.test(modelId);
  const baseModel = modelId.replace(PROFILE_PREFIX, '');
  fn.addToRolePolicy(
    new PolicyStatement({
      actions: ['bedrock:InvokeModel', 'bedrock:InvokeModelWithResponseStream'],
      resources: profile
        ? [`arn:${partition}:bedrock:${region}:${account}:inference-profile/${modelId}`, `arn:${partition}:bedrock:*::foundation-model/${baseModel}`]
        : [`arn:${partition}:bedrock:${region}::foundation-model/${modelId}`],
    }),
  );
  if (profile && fn.role) {
    Validations.of(fn.role).acknowledge({
      id: `AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:bedrock:*::foundation-model/${baseModel}]`,
      reason: 'One model in any region: the cross-region inference profile of MODEL chooses the region per request',
    });
  }
}
