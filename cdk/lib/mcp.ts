import { CfnOutput, Duration } from 'aws-cdk-lib';
import { AllowedMethods, CachePolicy, OriginRequestPolicy, ViewerProtocolPolicy, type Distribution } from 'aws-cdk-lib/aws-cloudfront';
import { FunctionUrlOrigin } from 'aws-cdk-lib/aws-cloudfront-origins';
import { FunctionUrlAuthType, HttpMethod, InvokeMode, type FunctionUrl } from 'aws-cdk-lib/aws-lambda';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import type { Construct } from 'constructs';

export interface McpAccessPointProps {
  /**
   * The canonical URL of the MCP server (RFC 8707 resource, e.g. `https://mcp.example.com/mcp` on a custom domain in
   * front of the Function URL). Unset, the Function URL's own address is the resource.
   */
  resourceUrl?: string;
  /** Browser origins (besides the server's own) allowed to call /mcp, e.g. a web-based assistant. */
  allowedOrigins?: string[];
}

/**
 * The MCP access point in AWS: the MCP function's Function URL with response streaming (a long ask outlives API
 * Gateway's 30 s), serving /mcp, the authorization server (/oauth/*) and discovery (/.well-known/*) on one origin,
 * which is the issuer. Authentication is the handler's own (OAuth bearer tokens), so the URL itself is public.
 */
export function addMcpFunctionUrl(scope: Construct, fn: NodejsFunction, props: McpAccessPointProps = {}): FunctionUrl {
  if (props.resourceUrl) fn.addEnvironment('MCP_RESOURCE_URL', props.resourceUrl);
  if (props.allowedOrigins?.length) fn.addEnvironment('MCP_ALLOWED_ORIGINS', props.allowedOrigins.join(','));
  const url = fn.addFunctionUrl({
    authType: FunctionUrlAuthType.NONE,
    invokeMode: InvokeMode.RESPONSE_STREAM,
    // The handler validates Origin and Host itself (DNS rebinding) and answers preflights; bearer tokens, no cookies.
    cors: {
      allowedOrigins: ['*'],
      allowedMethods: [HttpMethod.POST, HttpMethod.GET, HttpMethod.DELETE],
      allowedHeaders: ['authorization', 'content-type', 'accept', 'mcp-protocol-version', 'mcp-method', 'mcp-name', 'last-event-id'],
      exposedHeaders: ['www-authenticate', 'mcp-protocol-version'],
      maxAge: Duration.hours(1),
    },
  });
  new CfnOutput(scope, 'McpUrl', {
    value: props.resourceUrl ?? `${url.url}mcp`,
    description: 'The MCP server to add to an assistant (OAuth: the assistant signs the person in; no key is pasted)',
  });
  return url;
}

/** The MCP access point's paths on the dashboard's distribution (its consent page needs the dashboard's session). */
export const MCP_DISTRIBUTION_PATHS = ['/mcp', '/oauth/*', '/.well-known/*'] as const;

/**
 * Serves the MCP function on the dashboard's origin: only with a custom domain (`resourceUrl` and the dashboard's
 * origin given as props), since the function must know that address and the distribution's own name would make the
 * two depend on each other. Nothing is cached; every viewer header but Host reaches the function.
 */
export function routeThroughDashboard(distribution: Distribution, url: FunctionUrl): void {
  const behavior = {
    viewerProtocolPolicy: ViewerProtocolPolicy.HTTPS_ONLY,
    allowedMethods: AllowedMethods.ALLOW_ALL,
    cachePolicy: CachePolicy.CACHING_DISABLED,
    originRequestPolicy: OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER,
  };
  const origin = new FunctionUrlOrigin(url);
  for (const path of MCP_DISTRIBUTION_PATHS) distribution.addBehavior(path, origin, behavior);
}
