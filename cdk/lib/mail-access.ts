import { Stack, Validations } from 'aws-cdk-lib';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';

/**
 * Lets a function send e-mail through Amazon SES (v2 SendEmail) from this account's verified identities in its
 * region: the platform's MAIL_FROM and the agents' sending domain. SES itself refuses any unverified sender.
 */
export function grantSendMail(fn: IFunction): void {
  const { partition, region, account } = Stack.of(fn);
  fn.addToRolePolicy(
    new PolicyStatement({
      actions: ['ses:SendEmail'],
      resources: [`arn:${partition}:ses:${region}:${account}:identity/*`, `arn:${partition}:ses:${region}:${account}:configuration-set/*`],
    }),
  );
  if (fn.role) {
    for (const resource of ['identity/*', 'configuration-set/*']) {
      Validations.of(fn.role).acknowledge({
        id: `AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:ses:<AWS::Region>:<AWS::AccountId>:${resource}]`,
        reason: 'SES sending from the verified identities of this account: the sender (MAIL_FROM, an agent address) is chosen per message',
      });
    }
  }
}
