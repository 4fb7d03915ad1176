import { runInNewContext } from 'node:vm';
import { rmSync } from 'node:fs';
import { Stage } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { afterAll, describe, expect, it } from 'vitest';
import { VIEWER_HOST_HEADER } from '@service/shared';
import { VIEWER_HOST_FUNCTION_CODE } from '../lib/mcp';
import { PlatformStack } from '../lib/platform-stack';
import { FIXTURE_EMBED_DIST, FIXTURE_HANDLER, testApp } from './support/synth';

/** The MCP access point in AWS: its streaming Function URL, served on the dashboard's distribution with or without a custom domain. */
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
  const template = Template.fromStack(stack);
  const resources = template.toJSON().Resources as Record<string, Resource>;
  const logicalId = (construct: { node: { defaultChild?: unknown } }) => stack.getLogicalId(construct.node.defaultChild as never);
  const mcpId = logicalId(stack.functions.get('Mcp')!);
  return {
    template,
    mcpEnvironment: resources[mcpId]!.Properties.Environment.Variables,
    distribution: resources[logicalId(stack.dashboard.distribution)]!.Properties.DistributionConfig,
    distributionId: logicalId(stack.dashboard.distribution),
    mcpUrlId: Object.entries(resources).find(
      ([, r]) => r.Type === 'AWS::Lambda::Url' && JSON.stringify(r.Properties.TargetFunctionArn).includes(`"${mcpId}"`),
    )![0],
  };
}
afterAll(() => stacks.forEach((stack) => rmSync(Stage.of(stack)!.outdir, { recursive: true, force: true })));

type Resource = {
  Type: string;
  Properties: { Environment: { Variables: Record<string, unknown> }; DistributionConfig: DistributionConfig; TargetFunctionArn: unknown };
};
type DistributionConfig = {
  CacheBehaviors: {
    PathPattern: string;
    TargetOriginId: string;
    FunctionAssociations?: { EventType: string; FunctionARN: unknown }[];
    OriginRequestPolicyId: string;
    CachePolicyId: string;
    ViewerProtocolPolicy: string;
  }[];
  Origins: { Id: string; DomainName: unknown; CustomOriginConfig?: { OriginReadTimeout?: number } }[];
};

describe('a default deploy (no custom domain)', () => {
  const deployed = synth({});

  it('streams from a public Function URL whose CORS lets bearer clients through', () => {
    deployed.template.hasResourceProperties('AWS::Lambda::Url', {
      AuthType: 'NONE',
      InvokeMode: 'RESPONSE_STREAM',
      Cors: Match.objectLike({
        AllowHeaders: Match.arrayWith(['authorization', 'mcp-protocol-version']),
        ExposeHeaders: Match.arrayWith(['www-authenticate']),
      }),
    });
  });

  it('serves /mcp, /oauth/* and /.well-known/* on the dashboard distribution, uncached, with every viewer header but Host', () => {
    const behaviors = deployed.distribution.CacheBehaviors.filter((behavior) => ['/mcp', '/oauth/*', '/.well-known/*'].includes(behavior.PathPattern));
    expect(behaviors.map((behavior) => behavior.PathPattern).sort()).toEqual(['/.well-known/*', '/mcp', '/oauth/*']);
    const origin = deployed.distribution.Origins.find((candidate) => candidate.Id === behaviors[0]!.TargetOriginId)!;
    expect(JSON.stringify(origin.DomainName)).toContain(deployed.mcpUrlId);
    expect(origin.CustomOriginConfig?.OriginReadTimeout).toBe(60);
    for (const behavior of behaviors) {
      expect(behavior).toMatchObject({
        TargetOriginId: origin.Id,
        ViewerProtocolPolicy: 'https-only',
        CachePolicyId: '4135ea2d-6df8-44a3-9df3-4b5a84be39ad', // Managed-CachingDisabled
        OriginRequestPolicyId: 'b689b0a8-53d0-40ab-baf2-68738e2966ac', // Managed-AllViewerExceptHostHeader
        FunctionAssociations: [{ EventType: 'viewer-request', FunctionARN: expect.anything() }],
      });
    }
  });

  // Template.fromStack refuses a template with a dependency cycle: the function cannot be told the distribution's name.
  it('learns its public origin per request: any CloudFront name, and no DASHBOARD_ORIGIN', () => {
    expect(deployed.mcpEnvironment).toMatchObject({ PUBLIC_HOSTS: '*.cloudfront.net' });
    expect(deployed.mcpEnvironment).not.toHaveProperty('DASHBOARD_ORIGIN');
    expect(deployed.mcpEnvironment).not.toHaveProperty('MCP_RESOURCE_URL');
  });

  it('outputs /mcp on the dashboard distribution as the address for assistants', () => {
    expect(deployed.template.toJSON().Outputs.McpUrl.Value).toEqual({
      'Fn::Join': ['', ['https://', { 'Fn::GetAtt': [deployed.distributionId, 'DomainName'] }, '/mcp']],
    });
  });
});

describe('the viewer-request function', () => {
  it('names the host the viewer addressed in the header the MCP function reads', () => {
    const handler = runInNewContext(`${VIEWER_HOST_FUNCTION_CODE}; handler`) as (event: unknown) => { headers: Record<string, { value: string }> };
    const request = handler({
      request: { uri: '/oauth/authorize', headers: { host: { value: 'd1234abcd.cloudfront.net' }, [VIEWER_HOST_HEADER]: { value: 'forged.example' } } },
    });
    expect(request.headers[VIEWER_HOST_HEADER]).toEqual({ value: 'd1234abcd.cloudfront.net' });
  });
});

describe('a deploy on a custom domain', () => {
  const deployed = synth({ mcp: { resourceUrl: 'https://agents.example.com/mcp' }, dashboardOrigin: 'https://agents.example.com' });

  it('knows its canonical URL, allows only that host as its public name, and outputs it', () => {
    expect(deployed.mcpEnvironment).toMatchObject({
      MCP_RESOURCE_URL: 'https://agents.example.com/mcp',
      PUBLIC_HOSTS: 'agents.example.com',
      DASHBOARD_ORIGIN: 'https://agents.example.com',
    });
    expect(deployed.distribution.CacheBehaviors.map((behavior) => behavior.PathPattern)).toEqual(
      expect.arrayContaining(['/mcp', '/oauth/*', '/.well-known/*']),
    );
    expect(deployed.template.toJSON().Outputs.McpUrl.Value).toBe('https://agents.example.com/mcp');
  });
});
