import { rmSync } from 'node:fs';
import { Stage } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PlatformStack } from '../lib/platform-stack';
import { FIXTURE_EMBED_DIST, FIXTURE_HANDLER, roleStatements, testApp } from './support/synth';

/** Platform e-mail (sign-in codes, invitations, the agents' mail) through Amazon SES, and the dashboard's origin. */
describe('mail and dashboard settings of the functions', () => {
  let stack: PlatformStack;
  let template: Template;
  beforeAll(() => {
    stack = new PlatformStack(testApp({ full: false }), 'Mail', {
      tablePrefix: 'mail-',
      resolveEntry: () => FIXTURE_HANDLER,
      embedDistDir: FIXTURE_EMBED_DIST,
      mailFrom: 'Service <no-reply@acme.example>',
      dashboardOrigin: 'https://dashboard.acme.example',
    });
    template = Template.fromStack(stack);
  });
  afterAll(() => rmSync(Stage.of(stack)!.outdir, { recursive: true, force: true }));

  const environmentOf = (id: string) =>
    (template.toJSON().Resources[stack.getLogicalId(stack.functions.get(id)!.node.defaultChild as never)] as { Properties: { Environment: { Variables: Record<string, unknown> } } })
      .Properties.Environment.Variables;
  const maySendMail = (id: string) => roleStatements(template, stack, stack.functions.get(id)!).some((statement) => [statement.Action].flat().includes('ses:SendEmail'));

  it('the functions that mail get MAIL_FROM and ses:SendEmail; the others neither', () => {
    for (const id of ['Api', 'SkillApi']) {
      expect(environmentOf(id)).toMatchObject({ MAIL_FROM: 'Service <no-reply@acme.example>', DASHBOARD_ORIGIN: 'https://dashboard.acme.example' });
      expect(maySendMail(id)).toBe(true);
    }
    for (const id of ['Runner', 'Widget', 'ConversationsApi']) {
      expect(environmentOf(id)).not.toHaveProperty('MAIL_FROM');
      expect(maySendMail(id)).toBe(false);
    }
  });
});
