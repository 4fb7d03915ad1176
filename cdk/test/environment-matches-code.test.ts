import { rmSync } from 'node:fs';
import { Stage } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FUNCTIONS } from '../lib/functions';
import { existingRepoFile } from '../lib/repo-paths';
import { PlatformStack } from '../lib/platform-stack';
import { BUILTIN_SKILLS } from '../lib/skills';
import { handlerUsage } from './support/handler-usage';
import { FIXTURE_EMBED_DIST, testApp } from './support/synth';

/** Read by Node itself, not by the handler's code. */
const RUNTIME_SETTINGS = new Set(['NODE_OPTIONS']);

/**
 * The stack's environment is the handler's input: a setting the stack gives but the code never reads is a mistake
 * on one side, most often a secret the stack grants by ARN that the handler never loads (the visitor then sees
 * INTERNAL_ERROR where the secret is needed). Every deploy setting is given here, so every variable the stack can
 * set is checked against the code of each existing handler and built-in skill.
 */
let stack: PlatformStack;
let resources: ReturnType<Template['toJSON']>['Resources'];

beforeAll(() => {
  stack = new PlatformStack(testApp({ full: false }), 'Environment', {
    tablePrefix: 'env-',
    model: 'bedrock:anthropic.claude-test',
    modelPrice: '3/15',
    mailFrom: 'Service <no-reply@acme.example>',
    agentMailDomain: 'agents.acme.example',
    dashboardOrigin: 'https://agents.acme.example',
    mcp: { resourceUrl: 'https://agents.acme.example/mcp', allowedOrigins: ['https://assistant.example'] },
    skills: [],
    embedDistDir: FIXTURE_EMBED_DIST,
    dashboardDistDir: FIXTURE_EMBED_DIST,
  });
  resources = Template.fromStack(stack).toJSON().Resources;
});
afterAll(() => rmSync(Stage.of(stack)!.outdir, { recursive: true, force: true }));

const environmentOf = (fn: IFunction): string[] =>
  Object.keys(resources[stack.getLogicalId(fn.node.defaultChild as never)].Properties.Environment.Variables).filter((name) => !RUNTIME_SETTINGS.has(name));

const handlers = [
  ...FUNCTIONS.map((definition) => ({ id: definition.id, entry: existingRepoFile(definition.entry), fn: () => stack.functions.get(definition.id)! })),
  ...BUILTIN_SKILLS.map((skill) => ({ id: skill.id, entry: existingRepoFile(skill.entry), fn: () => stack.skills.get(skill.id)!.function })),
].filter((handler): handler is typeof handler & { entry: string } => handler.entry !== undefined);

describe.each(handlers.map((handler) => [handler.id, handler] as const))('%s', (_, handler) => {
  it('reads every setting the stack gives it (a secret granted by ARN is loaded)', async () => {
    const { settingNames } = await handlerUsage(handler.entry);
    const unread = environmentOf(handler.fn()).filter((name) => !settingNames.has(name));
    expect(unread, `the stack gives ${handler.id} settings its code never reads`).toEqual([]);
  });
});

it("gives the model's price to the function that answers insights/agent, and to no other", () => {
  const priced = FUNCTIONS.filter((definition) => environmentOf(stack.functions.get(definition.id)!).includes('MODEL_PRICE')).map(
    (definition) => definition.id,
  );
  expect(priced).toEqual(['Api']);
});
