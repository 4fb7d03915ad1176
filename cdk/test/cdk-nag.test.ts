import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { Stack, Validations, type App } from 'aws-cdk-lib';
import { Bucket } from 'aws-cdk-lib/aws-s3';
import { AwsSolutionsChecks } from 'cdk-nag';
import { afterAll, describe, expect, it } from 'vitest';
import { PlatformStack } from '../lib/platform-stack';
import { FIXTURE_EMBED_DIST, FIXTURE_HANDLER, testApp } from './support/synth';

/**
 * cdk-nag's AwsSolutions pack over the whole platform: every planned function (fixture handlers), the skills, the
 * widget CDN with its deployments, the alarms, and a Bedrock model behind a cross-region inference profile. Each
 * finding is either fixed or acknowledged in the stack's code with its reason; none may remain.
 */
interface Report {
  pluginReports: { pluginName: string; violations: { ruleName: string; violatingConstructs: { constructPath: string }[] }[] }[];
}

const apps: App[] = [];
afterAll(() => {
  for (const app of apps) rmSync(app.outdir, { recursive: true, force: true });
});

function checkedApp(): App {
  const app = testApp({ full: false });
  apps.push(app);
  Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
  return app;
}

/** Synthesizes; returns the findings (rule and construct path) of the validation report, and whether synth refused. */
function synthFindings(app: App): { findings: string[]; refused: boolean } {
  let refused = false;
  try {
    app.synth();
  } catch {
    refused = true;
  }
  const report = JSON.parse(readFileSync(join(app.outdir, 'validation-report.json'), 'utf8')) as Report;
  const findings = report.pluginReports.flatMap((plugin) =>
    plugin.violations.flatMap((violation) => violation.violatingConstructs.map((construct) => `${violation.ruleName} ${construct.constructPath}`)),
  );
  return { findings, refused };
}

describe('cdk-nag AwsSolutions', () => {
  it('is live: an unlogged bucket in a scratch stack is reported and synth refuses', () => {
    const app = checkedApp();
    new Bucket(new Stack(app, 'Scratch'), 'Unlogged', { enforceSSL: true });
    const { findings, refused } = synthFindings(app);
    expect(findings).toContain('AwsSolutions-S1 Scratch/Unlogged/Resource');
    expect(refused).toBe(true);
  });

  it('reports nothing unacknowledged for the whole platform, and every acknowledgement gives its reason', () => {
    const app = checkedApp();
    new PlatformStack(app, 'Nag', {
      tablePrefix: 'nag-',
      model: 'bedrock:eu.anthropic.claude-test-v1:0',
      resolveEntry: () => FIXTURE_HANDLER,
      embedDistDir: FIXTURE_EMBED_DIST,
      alarmEmail: 'ops@example.com',
      // Without them synth warns (SES would refuse the default senders), and a warning is a finding.
      mailFrom: 'Service <no-reply@example.com>',
      agentMailDomain: 'agents.example.com',
    });
    const { findings, refused } = synthFindings(app);
    expect(findings).toEqual([]);
    expect(refused).toBe(false);

    const acknowledged = app.node
      .findAll()
      .flatMap((construct) => construct.node.metadata.filter((entry) => entry.type === Validations.ACKNOWLEDGED_RULES_METADATA_KEY))
      // Each entry is { "<plugin>::<rule id>": reason }.
      .flatMap((entry) => Object.entries(entry.data as Record<string, string>));
    expect(acknowledged.length).toBeGreaterThan(0);
    for (const [id, reason] of acknowledged) {
      expect(id).toMatch(/AwsSolutions-[A-Z]+\d+/);
      expect(reason.length, id).toBeGreaterThan(40);
    }
  });
});
