import { CfnOutput, Duration } from 'aws-cdk-lib';
import {
  AllowedMethods,
  CachePolicy,
  FunctionCode,
  FunctionEventType,
  FunctionRuntime,
  Function as CloudFrontFunction,
  OriginRequestPolicy,
  ViewerProtocolPolicy,
  type Distribution,
} from 'aws-cdk-lib/aws-cloudfront';
import { FunctionUrlOrigin } from 'aws-cdk-lib/aws-cloudfront-origins';
import { FunctionUrlAuthType, HttpMethod, InvokeMode, type FunctionUrl, type Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import type { Construct } from 'constructs';
import { MCP_PATH, VIEWER_HOST_HEADER } from '@service/shared';

export interface McpAccessPointProps {
  /**
   * The canonical URL of the MCP server (RFC 8707 resource), e.g. `https://agents.example.com/mcp` on the dashboard's
   * custom domain. Unset, the address the viewer used on the dashboard's distribution is the resource.
   */
  resourceUrl?: string;
  /** Browser origins (besides the server's own) allowed to call /mcp, e.g. a web-based assistant. */
  allowedOrigins?: string[];
}

/** The MCP access point's paths on the dashboard's distribution (its consent page needs the dashboard's session). */
export const MCP_DISTRIBUTION_PATHS = [MCP_PATH, '/mcp-ui/*', '/oauth/*', '/.well-known/*'] as const;

/** Host names of CloudFront's own distributions: the public name of a deploy without a custom domain. */
const CLOUDFRONT_DEFAULT_HOSTS = '*.cloudfront.net';

/**
 * The MCP function's streaming Function URL (a long ask outlives API Gateway's 30 s): /mcp, the authorization server
 * (/oauth/*) and discovery (/.well-known/*). Authentication is the handler's own (OAuth bearer tokens), so the URL
 * itself is public; people and assistants use it through the dashboard's distribution (`serveOnDashboard`).
 */
export function addMcpFunctionUrl(fn: LambdaFunction, props: McpAccessPointProps = {}): FunctionUrl {
  if (props.resourceUrl) fn.addEnvironment('MCP_RESOURCE_URL', props.resourceUrl);
  if (props.allowedOrigins?.length) fn.addEnvironment('MCP_ALLOWED_ORIGINS', props.allowedOrigins.join(','));
  return fn.addFunctionUrl({
    authType: FunctionUrlAuthType.NONE,
    invokeMode: InvokeMode.RESPONSE_STREAM,
    // The handler validates Origin and Host itself (DNS rebinding) and answers preflights.
    cors: {
      allowedOrigins: ['*'],
      allowedMethods: [HttpMethod.POST, HttpMethod.GET, HttpMethod.DELETE],
      allowedHeaders: ['authorization', 'content-type', 'accept', 'mcp-protocol-version', 'mcp-method', 'mcp-name', 'last-event-id'],
      exposedHeaders: ['www-authenticate', 'mcp-protocol-version'],
      maxAge: Duration.hours(1),
    },
  });
}

/** CloudFront Functions code (viewer request): names the host the viewer addressed, which the origin's Host is not. */
export const VIEWER_HOST_FUNCTION_CODE = `function handler(event) {
  var request = event.request;
  request.headers['${VIEWER_HOST_HEADER}'] = { value: request.headers.host.value };
  return request;
}`;

/**
 * Serves the MCP function on the dashboard's distribution, so the consent page sees the dashboard's session cookie.
 * Nothing is cached; every viewer header but Host reaches the function, and a viewer-request function names the
 * viewer's host, which the function takes as its public origin (issuer, resource, consent page) when it is one the
 * stack allows (PUBLIC_HOSTS): the dashboard's custom domain (`customOrigin`), or else any CloudFront name, since the
 * distribution's own name would make the function and the distribution depend on each other.
 */
export function serveOnDashboard(scope: Construct, fn: LambdaFunction, url: FunctionUrl, distribution: Distribution, customOrigin: string | undefined): void {
  fn.addEnvironment('PUBLIC_HOSTS', customOrigin ? new URL(customOrigin).host : CLOUDFRONT_DEFAULT_HOSTS);
  const viewerHost = new CloudFrontFunction(scope, 'McpViewerHost', {
    comment: 'MCP access point: names the viewer host for the origin',
    runtime: FunctionRuntime.JS_2_0,
    code: FunctionCode.fromInline(VIEWER_HOST_FUNCTION_CODE),
  });
  const behavior = {
    viewerProtocolPolicy: ViewerProtocolPolicy.HTTPS_ONLY,
    allowedMethods: AllowedMethods.ALLOW_ALL,
    cachePolicy: CachePolicy.CACHING_DISABLED,
    originRequestPolicy: OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER,
    functionAssociations: [{ eventType: FunctionEventType.VIEWER_REQUEST, function: viewerHost }],
  };
  // An ask waits up to 60 s for its run: CloudFront's longest origin wait without a quota increase.
  const origin = new FunctionUrlOrigin(url, { readTimeout: Duration.seconds(60) });
  for (const path of MCP_DISTRIBUTION_PATHS) distribution.addBehavior(path, origin, behavior);
}

/** The MCP server's address for assistants: the canonical resource URL, else /mcp on the dashboard's distribution. */
export function addMcpUrlOutput(scope: Construct, distribution: Distribution, props: McpAccessPointProps = {}): void {
  new CfnOutput(scope, 'McpUrl', {
    value: props.resourceUrl ?? `https://${distribution.distributionDomainName}${MCP_PATH}`,
    description: 'The MCP server to add to an assistant (OAuth: the assistant signs the person in; no key is pasted)',
  });
}
