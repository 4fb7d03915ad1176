import { rmSync } from 'node:fs';
import { Stage } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { afterAll, describe, expect, it } from 'vitest';
import { PlatformStack } from '../lib/platform-stack';
import { FIXTURE_EMBED_DIST, FIXTURE_HANDLER, testApp } from './support/synth';

/** The MCP access point in AWS: its streaming Function URL, its canonical URL, and its paths on the dashboard's domain. */
const stacks: PlatformStack[] = [];
function synth(props: { mcp?: { resourceUrl: string }; dashboardOrigin?: string }) {
  const stack = new PlatformStack(testApp({ full: false }), `Mcp${stacks.length}`, {
    tablePrefix: 'mcp-',
    resolveEntry: () => FIXTURE_HANDLER,
    skills: [],
    embedDistDir: FIXTURE_EMBED_DIST,
    dashboardDistDir: FIXTURE_EMBED_DIST,
    ...props,
  });
  stacks.push(stack);
  return { stack, template: Template.fromStack(stack) };
}
afterAll(() => stacks.forEach((stack) => rmSync(Stage.of(stack)!.outdir, { recursive: true, force: true })));

describe('the Mcp function', () => {
  it('streams from a public Function URL whose CORS lets bearer clients through, and says where it is', () => {
    const { stack, template } = synth({});
    const mcp = stack.functions.get('Mcp')!;
    template.hasResourceProperties('AWS::Lambda::Url', {
      TargetFunctionArn: { 'Fn::GetAtt': [stack.getLogicalId(mcp.node.defaultChild as never), 'Arn'] },
      AuthType: 'NONE',
      InvokeMode: 'RESPONSE_STREAM',
      Cors: Match.objectLike({ AllowHeaders: Match.arrayWith(['authorization', 'mcp-protocol-version']), ExposeHeaders: Match.arrayWith(['www-authenticate']) }),
    });
    expect(Object.keys(template.findOutputs('McpUrl'))).toEqual(['McpUrl']);
  });

  it('on a custom domain: knows its canonical URL and serves /mcp, /oauth/* and /.well-known/* on the dashboard distribution', () => {
    const { stack, template } = synth({ mcp: { resourceUrl: 'https://agents.example.com/mcp' }, dashboardOrigin: 'https://agents.example.com' });
    const mcp = template.toJSON().Resources[stack.getLogicalId(stack.functions.get('Mcp')!.node.defaultChild as never)];
    expect(mcp.Properties.Environment.Variables).toMatchObject({ MCP_RESOURCE_URL: 'https://agents.example.com/mcp' });
    const distribution = Object.values(template.findResources('AWS::CloudFront::Distribution')).find((resource) =>
      JSON.stringify(resource).includes('"Comment":"Dashboard"'),
    ) as { Properties: { DistributionConfig: { CacheBehaviors: { PathPattern: string }[] } } };
    expect(distribution.Properties.DistributionConfig.CacheBehaviors.map((behavior) => behavior.PathPattern)).toEqual(expect.arrayContaining(['/mcp', '/oauth/*', '/.well-known/*']));
  });
});
