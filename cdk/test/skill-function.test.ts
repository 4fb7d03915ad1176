import { Stack, Stage } from 'aws-cdk-lib';
import { rmSync } from 'node:fs';
import { Match, Template } from 'aws-cdk-lib/assertions';
import type { Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createNodeFunction } from '../lib/node-function';
import { generatedSecret } from '../lib/secrets';
import { SKILL_SECRET_ENV, SkillFunction } from '../lib/skill-function';
import { FIXTURE_HANDLER, actionsOn, roleStatements, testApp } from './support/synth';

/** A skill deployed on its own, beside a platform function that calls it. */
let stack: Stack;
let skill: SkillFunction;
let caller: LambdaFunction;
let turnTokenKeyId: string;
let template: Template;
let skillEnv: Record<string, unknown>;

beforeAll(() => {
  stack = new Stack(testApp({ full: false }), 'Skill');
  const turnTokenKey = generatedSecret(stack, 'TurnTokenKey', 'turn tokens');
  turnTokenKeyId = stack.getLogicalId(turnTokenKey.node.defaultChild as never);
  skill = new SkillFunction(stack, 'Hello', { entry: FIXTURE_HANDLER, turnTokenKey, environment: { SERVICE_API_URL: 'https://api.example.com/en/api/v1' } });
  caller = createNodeFunction(stack, 'Caller', { entry: FIXTURE_HANDLER, timeoutSeconds: 10, memoryMb: 256 });
  skill.grantCall(caller);
  template = Template.fromStack(stack);
  skillEnv = template.toJSON().Resources[stack.getLogicalId(skill.function.node.defaultChild as never)].Properties.Environment.Variables;
});
afterAll(() => rmSync(Stage.of(stack)!.outdir, { recursive: true, force: true }));

const id = (construct: { node: { defaultChild?: unknown } }) => stack.getLogicalId(construct.node.defaultChild as never);

it('serves the skill from a public Function URL (the skill checks its own bearer)', () => {
  template.hasResourceProperties('AWS::Lambda::Url', {
    TargetFunctionArn: { 'Fn::GetAtt': [id(skill.function), 'Arn'] },
    AuthType: 'NONE',
  });
});

it('generates the bearer in Secrets Manager and passes both secrets by ARN, never by value', () => {
  template.resourceCountIs('AWS::SecretsManager::Secret', 2);
  template.hasResourceProperties('AWS::SecretsManager::Secret', {
    GenerateSecretString: Match.objectLike({ PasswordLength: 64, ExcludePunctuation: true }),
    SecretString: Match.absent(),
  });
  expect(skillEnv[SKILL_SECRET_ENV.bearer]).toEqual({ Ref: id(skill.bearer) });
  expect(skillEnv[SKILL_SECRET_ENV.turnTokenKey]).toEqual({ Ref: turnTokenKeyId });
  expect(skillEnv).not.toHaveProperty('SKILL_BEARER');
  expect(skillEnv).not.toHaveProperty('SKILL_TURN_TOKEN_SECRET');
  expect(JSON.stringify(skillEnv)).not.toMatch(/resolve:secretsmanager/);
  expect(skillEnv).toMatchObject({ NODE_ENV: 'production', SERVICE_API_URL: 'https://api.example.com/en/api/v1' });
});

it('lets the skill read both of its secrets', () => {
  const statements = roleStatements(template, stack, skill.function);
  expect(actionsOn(statements, id(skill.bearer))).toContain('secretsmanager:GetSecretValue');
  expect(actionsOn(statements, turnTokenKeyId)).toContain('secretsmanager:GetSecretValue');
});

it('grantCall lets a platform function read the bearer, and nothing else of the skill', () => {
  const statements = roleStatements(template, stack, caller);
  expect(actionsOn(statements, id(skill.bearer))).toContain('secretsmanager:GetSecretValue');
  expect(actionsOn(statements, turnTokenKeyId).size).toBe(0);
});
