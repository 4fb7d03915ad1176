import { Duration, Validations } from 'aws-cdk-lib';
import {
  AllowedMethods,
  CachePolicy,
  Distribution,
  FunctionCode,
  FunctionEventType,
  Function as CloudFrontFunction,
  HeadersFrameOption,
  HeadersReferrerPolicy,
  OriginRequestPolicy,
  ResponseHeadersPolicy,
  ViewerProtocolPolicy,
  type BehaviorOptions,
} from 'aws-cdk-lib/aws-cloudfront';
import { FunctionUrlOrigin, HttpOrigin, S3BucketOrigin } from 'aws-cdk-lib/aws-cloudfront-origins';
import type { IFunctionUrl } from 'aws-cdk-lib/aws-lambda';
import type { Bucket, IBucket } from 'aws-cdk-lib/aws-s3';
import { BucketDeployment, CacheControl, Source } from 'aws-cdk-lib/aws-s3-deployment';
import { Construct } from 'constructs';
import { DASHBOARD_CSP, DASHBOARD_PREFIX, DASHBOARD_PREVIEW_CSP, DASHBOARD_PREVIEW_PAGE, ROUTES, SUPPORTED_LANGUAGES } from '@service/shared';
import { acknowledgeDeploymentHandler, EMBED_PREFIX, HASHED_CHUNK_PATTERN, siteBucket } from './embed-site';

/**
 * agents/command_stream, conversations/stream and conversations/inbox_stream in every language, from their streaming
 * Function URL, never cached; heartbeats keep them under the read timeout.
 */
function runStreamBehaviors(url: IFunctionUrl): Record<string, BehaviorOptions> {
  const behavior: BehaviorOptions = {
    origin: new FunctionUrlOrigin(url, { readTimeout: Duration.seconds(60) }),
    viewerProtocolPolicy: ViewerProtocolPolicy.HTTPS_ONLY,
    allowedMethods: AllowedMethods.ALLOW_GET_HEAD_OPTIONS,
    cachePolicy: CachePolicy.CACHING_DISABLED,
    originRequestPolicy: OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER,
  };
  return Object.fromEntries(
    SUPPORTED_LANGUAGES.flatMap((lang) =>
      [ROUTES.runStream, ROUTES.conversationStream, ROUTES.inboxStream].map((route) => [`${route.replace('{lang}', lang)}*`, behavior]),
    ),
  );
}

/** index.html and preview.html keep their names across releases: a short cache lets a release reach people. */
const PAGE_MAX_AGE = Duration.minutes(1);

export interface DashboardSiteProps {
  /** The built dashboard (dashboard/dist), or undefined to create the bucket and distribution without content. */
  distDir: string | undefined;
  /** Host name of the HTTP API: the REST API (`/{lang}/api/*`) and the widget routes (`/v1/*`) are forwarded to it, so
   * the dashboard calls the API on its own origin (session cookie, Origin check). */
  apiDomain: string;
  /** The widget's bucket: `/embed/*` is served from it, so the embed snippet and the Settings preview use this origin. */
  embedBucket: IBucket;
  /** Where the bucket's and the distribution's access logs go (the widget CDN's log bucket). */
  accessLogs: Bucket;
  /** The streaming Function URL of agents/command_stream (Server-Sent Events), which the HTTP API would buffer. */
  runStreamUrl?: IFunctionUrl;
}

/**
 * The dashboard: a private S3 bucket read by CloudFront through origin access control, under `/dashboard/`, every
 * answer with the dashboard's Content-Security-Policy and `frame-ancestors 'none'` (the preview page: the dashboard
 * only). The API and the widget files are behaviours of the same distribution: one origin for everything the
 * dashboard touches.
 */
export class DashboardSite extends Construct {
  readonly bucket: Bucket;
  readonly distribution: Distribution;
  readonly headers: ResponseHeadersPolicy;
  readonly previewHeaders: ResponseHeadersPolicy;

  constructor(scope: Construct, id: string, props: DashboardSiteProps) {
    super(scope, id);
    this.bucket = siteBucket(this, props.accessLogs, 's3-dashboard/');
    this.headers = this.headersPolicy('Headers', DASHBOARD_CSP, HeadersFrameOption.DENY);
    this.previewHeaders = this.headersPolicy('PreviewHeaders', DASHBOARD_PREVIEW_CSP, HeadersFrameOption.SAMEORIGIN);
    const origin = S3BucketOrigin.withOriginAccessControl(this.bucket);
    const page = (responseHeadersPolicy: ResponseHeadersPolicy): BehaviorOptions => ({
      origin,
      viewerProtocolPolicy: ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
      cachePolicy: CachePolicy.CACHING_OPTIMIZED,
      responseHeadersPolicy,
      compress: true,
      functionAssociations: [{ eventType: FunctionEventType.VIEWER_REQUEST, function: this.indexRewrite() }],
    });
    const api: BehaviorOptions = {
      origin: new HttpOrigin(props.apiDomain),
      viewerProtocolPolicy: ViewerProtocolPolicy.HTTPS_ONLY,
      allowedMethods: AllowedMethods.ALLOW_ALL,
      cachePolicy: CachePolicy.CACHING_DISABLED,
      originRequestPolicy: OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER,
    };
    this.distribution = new Distribution(this, 'Distribution', {
      comment: 'Dashboard',
      enableLogging: true,
      logBucket: props.accessLogs,
      logFilePrefix: 'cloudfront-dashboard/',
      defaultBehavior: page(this.headers),
      additionalBehaviors: {
        [`${DASHBOARD_PREFIX}${DASHBOARD_PREVIEW_PAGE}`]: page(this.previewHeaders),
        [`/${EMBED_PREFIX}*`]: {
          origin: S3BucketOrigin.withOriginAccessControl(props.embedBucket),
          viewerProtocolPolicy: ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
          cachePolicy: CachePolicy.CACHING_OPTIMIZED,
          responseHeadersPolicy: ResponseHeadersPolicy.CORS_ALLOW_ALL_ORIGINS,
          compress: true,
        },
        // Before `/{lang}/api/*`: CloudFront takes the first pattern that matches, in this order.
        ...(props.runStreamUrl ? runStreamBehaviors(props.runStreamUrl) : {}),
        '/en/api/*': api,
        '/tr/api/*': api,
        '/v1/*': api,
      },
    });
    this.acknowledgeDistributionFindings();
    if (props.distDir) this.deploy(props.distDir);
  }

  /** The dashboard's security headers on every answer of a behaviour (overriding any the origin sent). */
  private headersPolicy(id: string, contentSecurityPolicy: string, frameOption: HeadersFrameOption): ResponseHeadersPolicy {
    return new ResponseHeadersPolicy(this, id, {
      comment: `Dashboard ${id === 'Headers' ? 'pages' : 'widget preview'}: CSP without unsafe-inline`,
      securityHeadersBehavior: {
        contentSecurityPolicy: { contentSecurityPolicy, override: true },
        frameOptions: { frameOption, override: true },
        contentTypeOptions: { override: true },
        referrerPolicy: { referrerPolicy: HeadersReferrerPolicy.SAME_ORIGIN, override: true },
        strictTransportSecurity: { accessControlMaxAge: Duration.days(365), includeSubdomains: true, override: true },
      },
    });
  }

  private rewrite?: CloudFrontFunction;
  /** `/` and `/dashboard` go to `/dashboard/`; a path ending in `/` is its index.html (S3 has no directory index). */
  private indexRewrite(): CloudFrontFunction {
    this.rewrite ??= new CloudFrontFunction(this, 'IndexRewrite', {
      comment: 'Dashboard index.html for /dashboard/',
      code: FunctionCode.fromInline(`function handler(event) {
  var request = event.request;
  if (request.uri === '/' || request.uri === '${DASHBOARD_PREFIX.slice(0, -1)}') {
    return { statusCode: 302, statusDescription: 'Found', headers: { location: { value: '${DASHBOARD_PREFIX}' } } };
  }
  if (request.uri.endsWith('/')) request.uri += 'index.html';
  return request;
}`),
    });
    return this.rewrite;
  }

  private acknowledgeDistributionFindings(): void {
    const acknowledge = (id: string, reason: string) => Validations.of(this.distribution).acknowledge({ id, reason });
    acknowledge('AwsSolutions-CFR1', "The dashboard is used by the company's people wherever they work; sign-in, not geography, decides who gets in");
    acknowledge(
      'AwsSolutions-CFR2',
      'No WAF: the distribution serves static files, and the API behind it limits sign-in attempts per address and per client and every key and session itself',
    );
    acknowledge(
      'AwsSolutions-CFR4',
      'The default *.cloudfront.net certificate cannot raise the minimum TLS version; a custom domain with its own certificate (TLSv1.2_2021) is the way to require it',
    );
  }

  /** Content-hashed chunks cached for a year; the two pages and the icon briefly. Each deployment's filter keeps the
   * other's files from its prune. */
  private deploy(distDir: string): void {
    const common = {
      sources: [Source.asset(distDir)],
      destinationBucket: this.bucket,
      destinationKeyPrefix: DASHBOARD_PREFIX.slice(1),
      distribution: this.distribution,
      distributionPaths: [`${DASHBOARD_PREFIX}*`],
    };
    const hashed = new BucketDeployment(this, 'HashedChunks', {
      ...common,
      exclude: ['*'],
      include: [HASHED_CHUNK_PATTERN, '*-????????.css'],
      cacheControl: [CacheControl.setPublic(), CacheControl.maxAge(Duration.days(365)), CacheControl.immutable()],
    });
    new BucketDeployment(this, 'Pages', {
      ...common,
      exclude: [HASHED_CHUNK_PATTERN, '*-????????.css'],
      cacheControl: [CacheControl.setPublic(), CacheControl.maxAge(PAGE_MAX_AGE)],
    });
    acknowledgeDeploymentHandler(hashed, this.bucket, DASHBOARD_PREFIX.slice(1));
  }
}
