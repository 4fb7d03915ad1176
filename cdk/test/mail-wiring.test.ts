import { rmSync } from 'node:fs';
import { Stage } from 'aws-cdk-lib';
import { Annotations, Match, Template } from 'aws-cdk-lib/assertions';
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
      agentMailDomain: 'agents.acme.example',
      dashboardOrigin: 'https://dashboard.acme.example',
    });
    template = Template.fromStack(stack);
  });
  afterAll(() => rmSync(Stage.of(stack)!.outdir, { recursive: true, force: true }));

  const environmentOf = (id: string) =>
    (template.toJSON().Resources[stack.getLogicalId(stack.functions.get(id)!.node.defaultChild as never)] as { Properties: { Environment: { Variables: Record<string, unknown> } } })
      .Properties.Environment.Variables;
  const maySendMail = (id: string) => roleStatements(template, stack, stack.functions.get(id)!).some((statement) => [statement.Action].flat().includes('ses:SendEmail'));

  it('the functions that mail get MAIL_FROM, AGENT_MAIL_DOMAIN and ses:SendEmail; the others none of them', () => {
    // ConversationsApi: a teammate's reply to a visitor who left an e-mail address when nobody was available.
    for (const id of ['Api', 'SkillApi', 'AuthApi', 'ConversationsApi']) {
      expect(environmentOf(id)).toMatchObject({ MAIL_FROM: 'Service <no-reply@acme.example>', AGENT_MAIL_DOMAIN: 'agents.acme.example', DASHBOARD_ORIGIN: 'https://dashboard.acme.example' });
      expect(maySendMail(id)).toBe(true);
    }
    for (const id of ['Runner', 'Widget', 'ConversationSweeper']) {
      expect(environmentOf(id)).not.toHaveProperty('MAIL_FROM');
      expect(environmentOf(id)).not.toHaveProperty('AGENT_MAIL_DOMAIN');
      expect(maySendMail(id)).toBe(false);
    }
  });

  it('synthesizes without a mail warning when both senders are set', () => {
    expect(Annotations.fromStack(stack).findWarning('*', Match.stringLikeRegexp('mailFrom|agentMailDomain'))).toEqual([]);
  });
});

describe('a deploy without the mail settings', () => {
  it('warns at synth that SES will refuse the default senders, naming the context to set', () => {
    const stack = new PlatformStack(testApp({ full: false }), 'NoMail', { tablePrefix: 'nomail-', resolveEntry: () => FIXTURE_HANDLER, embedDistDir: FIXTURE_EMBED_DIST });
    try {
      const annotations = Annotations.fromStack(stack);
      annotations.hasWarning('*', Match.stringLikeRegexp('-c mailFrom='));
      annotations.hasWarning('*', Match.stringLikeRegexp('-c agentMailDomain='));
    } finally {
      rmSync(Stage.of(stack)!.outdir, { recursive: true, force: true });
    }
  });
});
