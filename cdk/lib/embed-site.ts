import { Duration, RemovalPolicy, Stack, Validations } from 'aws-cdk-lib';
import { AllowedMethods, CachePolicy, Distribution, OriginRequestPolicy, ResponseHeadersPolicy, ViewerProtocolPolicy } from 'aws-cdk-lib/aws-cloudfront';
import { HttpOrigin, S3BucketOrigin } from 'aws-cdk-lib/aws-cloudfront-origins';
import { BlockPublicAccess, Bucket, BucketEncryption, ObjectOwnership, type CfnBucket } from 'aws-cdk-lib/aws-s3';
import { BucketDeployment, CacheControl, Source } from 'aws-cdk-lib/aws-s3-deployment';
import { Construct } from 'constructs';

/** Where the one-line embed expects the files: `<script src="{origin}/embed/loader.js">`. */
export const EMBED_PREFIX = 'embed/';
/** Content-hashed chunks (Rollup's `[name]-[hash].js`, 8-character hash) never change, so browsers keep them for a year. */
export const HASHED_CHUNK_PATTERN = '*-????????.js';
/** Entry files keep their names across releases (the script tag points at loader.js): a short cache lets a release reach visitors. */
const ENTRY_MAX_AGE = Duration.minutes(5);
/** How long the access logs of the bucket and the distribution are kept. */
const ACCESS_LOG_DAYS = 90;
/** The npm build lives beside the browser build in embed/dist; it is published to npm, not to the CDN. */
const NOT_SERVED = ['npm'];

export interface EmbedSiteProps {
  /** The built widget (embed/dist), or undefined to create the bucket and distribution without content. */
  distDir: string | undefined;
  /** Host name of the HTTP API: `/v1/*` is forwarded to it, so the widget's default API URL (its script's origin) works. */
  apiDomain: string;
}

/**
 * The widget's CDN: a private S3 bucket read by CloudFront through origin access control. The loader imports the
 * widget chunk as an ES module across origins, hence the CORS response headers.
 */
export class EmbedSite extends Construct {
  readonly bucket: Bucket;
  /** Server access logs of the bucket (prefix `s3/`) and standard logs of the distribution (prefix `cloudfront/`). */
  readonly accessLogs: Bucket;
  readonly distribution: Distribution;

  constructor(scope: Construct, id: string, props: EmbedSiteProps) {
    super(scope, id);
    this.accessLogs = new Bucket(this, 'AccessLogs', {
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      encryption: BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      // CloudFront's standard logging writes with an ACL, which needs ACLs enabled on the target bucket.
      objectOwnership: ObjectOwnership.BUCKET_OWNER_PREFERRED,
      lifecycleRules: [{ expiration: Duration.days(ACCESS_LOG_DAYS) }],
      // Evidence of who fetched what: kept when the stack is deleted, like the tables.
      removalPolicy: RemovalPolicy.RETAIN,
    });
    Validations.of(this.accessLogs).acknowledge({
      id: 'AwsSolutions-S1',
      reason: 'This is the access-log bucket itself; logging its own access would log the log writes',
    });
    this.bucket = siteBucket(this, this.accessLogs, 's3/');
    this.distribution = new Distribution(this, 'Distribution', {
      comment: 'Chat widget embed',
      enableLogging: true,
      logBucket: this.accessLogs,
      logFilePrefix: 'cloudfront/',
      defaultBehavior: {
        origin: S3BucketOrigin.withOriginAccessControl(this.bucket),
        viewerProtocolPolicy: ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
        cachePolicy: CachePolicy.CACHING_OPTIMIZED,
        responseHeadersPolicy: ResponseHeadersPolicy.CORS_ALLOW_ALL_ORIGINS,
        compress: true,
      },
      additionalBehaviors: {
        '/v1/*': {
          origin: new HttpOrigin(props.apiDomain),
          viewerProtocolPolicy: ViewerProtocolPolicy.HTTPS_ONLY,
          allowedMethods: AllowedMethods.ALLOW_ALL,
          cachePolicy: CachePolicy.CACHING_DISABLED,
          originRequestPolicy: OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER,
        },
      },
    });
    this.acknowledgeDistributionFindings();
    if (props.distDir) this.deploy(props.distDir);
  }

  /** cdk-nag findings on the distribution that are choices, not omissions. */
  private acknowledgeDistributionFindings(): void {
    const acknowledge = (id: string, reason: string) => Validations.of(this.distribution).acknowledge({ id, reason });
    acknowledge('AwsSolutions-CFR1', 'The widget is embedded by sites whose visitors may be anywhere; no country is excluded');
    acknowledge(
      'AwsSolutions-CFR2',
      'No WAF: the distribution serves public static files, and the API behind /v1/* limits rates per key, per visitor and per agent itself',
    );
    acknowledge(
      'AwsSolutions-CFR4',
      'The default *.cloudfront.net certificate cannot raise the minimum TLS version; a custom domain with its own certificate (TLSv1.2_2021) is the way to require it',
    );
  }

  /**
   * Two deployments into the same prefix, split by the hashed-chunk pattern. Each one's exclude filters also
   * keep its prune from deleting the other's files.
   */
  private deploy(distDir: string): void {
    const common = {
      sources: [Source.asset(distDir, { exclude: NOT_SERVED })],
      destinationBucket: this.bucket,
      destinationKeyPrefix: EMBED_PREFIX,
      distribution: this.distribution,
      distributionPaths: [`/${EMBED_PREFIX}*`],
    };
    const hashed = new BucketDeployment(this, 'HashedChunks', {
      ...common,
      exclude: ['*'],
      include: [HASHED_CHUNK_PATTERN],
      cacheControl: [CacheControl.setPublic(), CacheControl.maxAge(Duration.days(365)), CacheControl.immutable()],
    });
    new BucketDeployment(this, 'EntryFiles', {
      ...common,
      exclude: [HASHED_CHUNK_PATTERN],
      cacheControl: [CacheControl.setPublic(), CacheControl.maxAge(ENTRY_MAX_AGE)],
    });
    acknowledgeDeploymentHandler(hashed, this.bucket, 'embed/');
  }
}

/** A private bucket of built files for CloudFront (read through origin access control), its access logged. */
export function siteBucket(scope: Construct, accessLogs: Bucket, logPrefix: string): Bucket {
  return new Bucket(scope, 'Bucket', {
    blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
    encryption: BucketEncryption.S3_MANAGED,
    enforceSSL: true,
    serverAccessLogsBucket: accessLogs,
    serverAccessLogsPrefix: logPrefix,
    // The contents are a build output, redeployed on every `cdk deploy`.
    removalPolicy: RemovalPolicy.DESTROY,
    autoDeleteObjects: true,
  });
}

/**
 * Deployments share one CDK-provided handler (a singleton at the stack's root), which runs only during `cdk deploy`.
 * Its runtime and its policy (copy from the CDK asset bucket, sync and prune under the prefix, invalidate the
 * distribution) are CDK's own; the findings are acknowledged on that handler alone.
 */
export function acknowledgeDeploymentHandler(deployment: BucketDeployment, bucket: Bucket, prefix: string): void {
  const role = deployment.handlerRole;
  const handler = role.node.scope as Construct;
  const bucketArn = `<${Stack.of(bucket).getLogicalId(bucket.node.defaultChild as CfnBucket)}.Arn>`;
  const reason = (what: string) => `CDK's BucketDeployment handler, run only during deploys: ${what}`;
  Validations.of(handler).acknowledge({ id: 'AwsSolutions-L1', reason: reason('its runtime is chosen by aws-cdk-lib') });
  Validations.of(role).acknowledge({
    id: 'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]',
    reason: reason('its role is created by aws-cdk-lib with the basic execution policy'),
  });
  for (const action of ['s3:GetBucket*', 's3:GetObject*', 's3:List*', 's3:Abort*', 's3:DeleteObject*']) {
    Validations.of(role).acknowledge({
      id: `AwsSolutions-IAM5[Action::${action}]`,
      reason: reason('aws-cdk-lib grants these action groups to copy, sync and prune'),
    });
  }
  for (const resource of [`${bucketArn}/*`, 'arn:<AWS::Partition>:s3:::cdk-hnb659fds-assets-<AWS::AccountId>-<AWS::Region>/*', '*']) {
    Validations.of(role).acknowledge({
      id: `AwsSolutions-IAM5[Resource::${resource}]`,
      reason: reason(
        `it reads every object of the CDK asset bucket it copies from, writes every object under ${prefix} of its bucket, and invalidates the distribution (CloudFront invalidation takes no resource ARN)`,
      ),
    });
  }
}
