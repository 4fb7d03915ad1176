import { join } from 'node:path';
import { Stack } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { Bucket } from 'aws-cdk-lib/aws-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rmSync } from 'node:fs';
import { DASHBOARD_CSP, DASHBOARD_PREVIEW_CSP } from '@service/shared';
import { DashboardSite } from '../lib/dashboard';
import { REPO_ROOT } from '../lib/repo-paths';
import { testApp } from './support/synth';

/** The dashboard's site alone in a stack: private bucket behind origin access control, the CSP on every answer. */
let template: Template;
let outdir: string;
beforeAll(() => {
  const app = testApp({ full: false });
  outdir = app.outdir;
  const stack = new Stack(app, 'DashboardOnly', { env: { account: '123456789012', region: 'eu-west-1' } });
  const accessLogs = new Bucket(stack, 'Logs');
  new DashboardSite(stack, 'Dashboard', {
    distDir: join(REPO_ROOT, 'cdk/test/fixtures/dashboard'),
    apiDomain: 'api.example.com',
    embedBucket: new Bucket(stack, 'Embed'),
    accessLogs,
  });
  template = Template.fromStack(stack);
});
afterAll(() => rmSync(outdir, { recursive: true, force: true }));

describe('DashboardSite', () => {
  it('keeps the bucket private: all public access blocked, read by CloudFront through origin access control only', () => {
    template.hasResourceProperties('AWS::S3::Bucket', {
      PublicAccessBlockConfiguration: { BlockPublicAcls: true, BlockPublicPolicy: true, IgnorePublicAcls: true, RestrictPublicBuckets: true },
      LoggingConfiguration: Match.objectLike({ LogFilePrefix: 's3-dashboard/' }),
    });
    template.resourceCountIs('AWS::CloudFront::OriginAccessControl', 2);
    const policies = JSON.stringify(template.findResources('AWS::S3::BucketPolicy'));
    expect(policies).toContain('cloudfront.amazonaws.com');
    expect(policies).toContain('AWS:SourceArn');
  });

  it('answers every page with the CSP (no unsafe-inline, frame-ancestors none) and the preview framed only by the dashboard', () => {
    expect(DASHBOARD_CSP).not.toMatch(/unsafe-(inline|eval)/);
    expect(DASHBOARD_CSP).toContain("frame-ancestors 'none'");
    template.hasResourceProperties('AWS::CloudFront::ResponseHeadersPolicy', {
      ResponseHeadersPolicyConfig: Match.objectLike({
        SecurityHeadersConfig: Match.objectLike({
          ContentSecurityPolicy: { ContentSecurityPolicy: DASHBOARD_CSP, Override: true },
          FrameOptions: { FrameOption: 'DENY', Override: true },
        }),
      }),
    });
    template.hasResourceProperties('AWS::CloudFront::ResponseHeadersPolicy', {
      ResponseHeadersPolicyConfig: Match.objectLike({
        SecurityHeadersConfig: Match.objectLike({ ContentSecurityPolicy: { ContentSecurityPolicy: DASHBOARD_PREVIEW_CSP, Override: true } }),
      }),
    });
    const distribution = Object.values(template.findResources('AWS::CloudFront::Distribution'))[0]!.Properties.DistributionConfig;
    const defaultPolicy = JSON.stringify(distribution.DefaultCacheBehavior.ResponseHeadersPolicyId);
    const previewBehavior = distribution.CacheBehaviors.find((behavior: { PathPattern: string }) => behavior.PathPattern === '/dashboard/preview.html');
    expect(previewBehavior).toBeDefined();
    expect(JSON.stringify(previewBehavior.ResponseHeadersPolicyId)).not.toEqual(defaultPolicy);
    expect(distribution.DefaultCacheBehavior.ViewerProtocolPolicy).toBe('redirect-to-https');
    expect(distribution.DefaultCacheBehavior.FunctionAssociations).toHaveLength(1);
  });

  it('serves the API and the widget files on the same origin (session cookie, absolute embed snippet)', () => {
    const distribution = Object.values(template.findResources('AWS::CloudFront::Distribution'))[0]!.Properties.DistributionConfig;
    const patterns = distribution.CacheBehaviors.map((behavior: { PathPattern: string }) => behavior.PathPattern);
    expect(patterns).toEqual(expect.arrayContaining(['/en/api/*', '/tr/api/*', '/v1/*', '/embed/*']));
    const api = distribution.CacheBehaviors.find((behavior: { PathPattern: string }) => behavior.PathPattern === '/en/api/*');
    expect(api.AllowedMethods).toContain('POST');
    expect(JSON.stringify(distribution.Origins)).toContain('api.example.com');
  });

  it('deploys dashboard/dist under dashboard/ with aws-s3-deployment: hashed chunks for a year, pages briefly', () => {
    const deployments = Object.values(template.findResources('Custom::CDKBucketDeployment')).map((resource) => resource.Properties);
    expect(deployments).toHaveLength(2);
    for (const deployment of deployments) expect(deployment.DestinationBucketKeyPrefix).toBe('dashboard/');
    const cacheControls = deployments.map((deployment) => JSON.stringify(deployment.SystemMetadata));
    expect(cacheControls.some((value) => value.includes('max-age=31536000') && value.includes('immutable'))).toBe(true);
    expect(cacheControls.some((value) => value.includes('max-age=60'))).toBe(true);
  });
});
