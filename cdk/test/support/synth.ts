import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App, type Stack } from 'aws-cdk-lib';
import type { Template } from 'aws-cdk-lib/assertions';
import type { CfnFunction, IFunction } from 'aws-cdk-lib/aws-lambda';
import { REPO_ROOT } from '../../lib/repo-paths';

/** The feature flags and settings of cdk.json, so tests synthesize what `npx cdk synth` synthesizes. */
export function cdkJsonContext(): Record<string, unknown> {
  const cdkJson = JSON.parse(readFileSync(join(REPO_ROOT, 'cdk.json'), 'utf8')) as { context: Record<string, unknown> };
  return cdkJson.context;
}

/**
 * An app with cdk.json's context. Wiring-only tests turn off the two slow steps: esbuild bundling (CDK's own
 * bundlingStacks switch) and the built-in CloudFormation validation; the full-app test keeps both.
 */
export function testApp(options: { full: boolean }): App {
  return new App({
    outdir: mkdtempSync(join(tmpdir(), 'cdk-test-')),
    context: { ...cdkJsonContext(), ...(options.full ? {} : { 'aws:cdk:bundling-stacks': [] }) },
    builtinCloudFormationValidation: options.full,
  });
}

export const FIXTURE_HANDLER = join(REPO_ROOT, 'cdk/test/fixtures/handler.ts');
export const FIXTURE_EMBED_DIST = join(REPO_ROOT, 'cdk/test/fixtures/embed');

type Resource = { Type: string; Properties: Record<string, unknown> };
type Statement = { Effect: string; Action: string | string[]; Resource: unknown };

/** The IAM statements attached to a function's execution role. */
export function roleStatements(template: Template, stack: Stack, fn: IFunction): Statement[] {
  const fnResource = template.toJSON().Resources[stack.getLogicalId(fn.node.defaultChild as CfnFunction)] as Resource;
  const roleId = (fnResource.Properties.Role as { 'Fn::GetAtt': [string, string] })['Fn::GetAtt'][0];
  // CDK moves what does not fit a role's inline policy into overflow managed policies attached to the same role.
  const policies = [
    ...Object.values(template.findResources('AWS::IAM::Policy')),
    ...Object.values(template.findResources('AWS::IAM::ManagedPolicy')),
  ] as Resource[];
  return policies
    .filter((policy) => ((policy.Properties.Roles ?? []) as { Ref: string }[]).some((role) => role.Ref === roleId))
    .flatMap((policy) => (policy.Properties.PolicyDocument as { Statement: Statement[] }).Statement);
}

export const actionsOf = (statement: Statement): string[] => [statement.Action].flat();

/** Actions the role may perform on resources whose definition mentions the given logical id. */
export function actionsOn(statements: Statement[], logicalId: string): Set<string> {
  return new Set(statements.filter((statement) => JSON.stringify(statement.Resource).includes(`"${logicalId}"`)).flatMap(actionsOf));
}

/** Logical ids of the resources of one type whose properties match. */
export function logicalIdsWhere(template: Template, type: string, match: (properties: Record<string, unknown>) => boolean): string[] {
  return Object.entries(template.findResources(type) as Record<string, Resource>)
    .filter(([, resource]) => match(resource.Properties))
    .map(([id]) => id);
}
