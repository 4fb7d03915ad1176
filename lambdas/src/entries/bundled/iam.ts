import * as z from 'zod';
import { idOfArn, resourcesOfType, type ResolvedStack } from './cloudformation';

const list = z.union([z.string(), z.array(z.string())]).transform((value) => (Array.isArray(value) ? value : [value]));
const StatementSchema = z.object({ Effect: z.enum(['Allow', 'Deny']), Action: list, Resource: list.default(['*']) });
const PolicySchema = z.object({ PolicyDocument: z.object({ Statement: z.array(StatementSchema) }), Roles: z.array(z.string()).default([]) });

type Statement = z.infer<typeof StatementSchema>;

const wildcard = (pattern: string) =>
  new RegExp(
    `^${pattern
      .replace(/[.+^${}()|[\]\\]/g, '\\$&')
      .replace(/\*/g, '.*')
      .replace(/\?/g, '.')}$`,
    'i',
  );
const matches = (patterns: string[], value: string) => patterns.some((pattern) => wildcard(pattern).test(value));

/** The identity-based policies of each role of the stack, and the question IAM answers for a call. */
export class RolePolicies {
  private readonly statements = new Map<string, Statement[]>();

  constructor(stack: ResolvedStack) {
    // CDK moves what does not fit a role's inline policy into overflow managed policies attached to the same role.
    for (const [, policy] of [...resourcesOfType(stack, 'AWS::IAM::Policy'), ...resourcesOfType(stack, 'AWS::IAM::ManagedPolicy')]) {
      const parsed = PolicySchema.parse(policy.Properties);
      for (const role of parsed.Roles) this.statements.set(role, [...(this.statements.get(role) ?? []), ...parsed.PolicyDocument.Statement]);
    }
  }

  /** Whether `roleArnOrId` may do `action` (e.g. `sqs:SendMessage`) on `resource` (an ARN): an Allow and no Deny. */
  allows(roleArnOrId: string, action: string, resource: string): boolean {
    const statements = (this.statements.get(idOfArn(roleArnOrId)) ?? []).filter(
      (statement) => matches(statement.Action, action) && matches(statement.Resource, resource),
    );
    return statements.some((statement) => statement.Effect === 'Allow') && !statements.some((statement) => statement.Effect === 'Deny');
  }
}

const ServiceStatementSchema = z.object({
  Effect: z.enum(['Allow', 'Deny']),
  Principal: z.object({ Service: list }).partial().optional(),
  Action: list,
  Resource: list,
});
const BucketPolicySchema = z.object({ Bucket: z.string(), PolicyDocument: z.object({ Statement: z.array(z.unknown()) }) });

/** Whether a bucket's policy in the template lets an AWS service (`ses.amazonaws.com`) do `action` on `resource`. */
export function bucketPolicyAllowsService(stack: ResolvedStack, bucket: string, service: string, action: string, resource: string): boolean {
  return resourcesOfType(stack, 'AWS::S3::BucketPolicy').some(([, policy]) => {
    const parsed = BucketPolicySchema.parse(policy.Properties);
    if (parsed.Bucket !== bucket) return false;
    return parsed.PolicyDocument.Statement.some((raw) => {
      const statement = ServiceStatementSchema.safeParse(raw);
      return (
        statement.success &&
        statement.data.Effect === 'Allow' &&
        (statement.data.Principal?.Service ?? []).includes(service) &&
        matches(statement.data.Action, action) &&
        matches(statement.data.Resource, resource)
      );
    });
  });
}
