import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import {
  AllowedMethods,
  CachePolicy,
  Distribution,
  OriginRequestPolicy,
  ResponseHeadersPolicy,
  ViewerProtocolPolicy,
} from 'aws-cdk-lib/aws-cloudfront';
import { HttpOrigin, S3BucketOrigin } from 'aws-cdk-lib/aws-cloudfront-origins';
import { BlockPublicAccess, Bucket, BucketEncryption } from 'aws-cdk-lib/aws-s3';
import { BucketDeployment, CacheControl, Source } from 'aws-cdk-lib/aws-s3-deployment';
import { Construct } from 'constructs';

/** Where the one-line embed expects the files: `<script src="{origin}/embed/loader.js">`. */
export const EMBED_PREFIX = 'embed/';
/** Content-hashed chunks (Rollup's `[name]-[hash].js`, 8-character hash) never change, so browsers keep them for a year. */
export const HASHED_CHUNK_PATTERN = '*-????????.js';
/** Entry files keep their names across releases (the script tag points at loader.js): a short cache lets a release reach visitors. */
const ENTRY_MAX_AGE = Duration.minutes(5);
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
  readonly distribution: Distribution;

  constructor(scope: Construct, id: string, props: EmbedSiteProps) {
    super(scope, id);
    this.bucket = new Bucket(this, 'Bucket', {
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      encryption: BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      // The contents are a build output, redeployed on every `cdk deploy`.
      removalPolicy: RemovalPolicy.DESTROY,
      autoDeleteObjects: true,
    });
    this.distribution = new Distribution(this, 'Distribution', {
      comment: 'Chat widget embed',
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
    if (props.distDir) this.deploy(props.distDir);
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
    new BucketDeployment(this, 'HashedChunks', {
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
  }
}
