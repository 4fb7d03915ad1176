import { LOCAL_REGION, idOfArn, propertiesOf, resourcesOfType, type ResolvedStack } from './cloudformation';
import { distribution, functionUrl, httpApi, type DistributionBehavior, type FunctionUrlCors, type HttpApiRoute, type RequestHandler } from './fronts';
import { hostOf, type Hosts } from './hosts';
import type { LambdaFunction } from './lambda-function';

/** Serves a handler on loopback as the AWS address `awsUrl` (and records that host). */
export type Serve = (awsUrl: string, handler: RequestHandler) => Promise<void>;
/** The stack's function of an ARN or logical id, once the functions are loaded. */
export type FunctionOf = (arnOrId: unknown) => LambdaFunction;

export interface FrontDoors {
  /** Gives each HTTP API route its function: call once the functions are loaded. */
  connectRoutes(): void;
  /** Every HTTP API route of the stack (complete after `connectRoutes`). */
  routes(): HttpApiRoute[];
}

/**
 * The stack's front doors (HTTP APIs, Function URLs, CloudFront distributions), served first, since the functions'
 * environments name their addresses; they find their functions at request time.
 */
export async function serveFrontDoors(stack: ResolvedStack, hosts: Hosts, serve: Serve, fn: FunctionOf): Promise<FrontDoors> {
  const routesOf = new Map<string, HttpApiRoute[]>();
  for (const [id] of resourcesOfType(stack, 'AWS::ApiGatewayV2::Api')) {
    const routes: HttpApiRoute[] = [];
    routesOf.set(id.toLowerCase(), routes);
    await serve(`https://${id.toLowerCase()}.execute-api.${LOCAL_REGION}.amazonaws.com`, httpApi(routes));
  }
  const integrations = new Map(resourcesOfType(stack, 'AWS::ApiGatewayV2::Integration').map(([id, integration]) => [id, integration.Properties]));
  const lazyRoutes: Array<() => void> = [];
  for (const [, route] of resourcesOfType(stack, 'AWS::ApiGatewayV2::Route')) {
    const { ApiId, RouteKey, Target } = propertiesOf<{ ApiId: string; RouteKey: string; Target: string }>(route);
    const [method, path] = RouteKey.split(' ') as [string, string];
    const integration = integrations.get(Target.replace('integrations/', ''));
    lazyRoutes.push(() => routesOf.get(ApiId)!.push({ method, path, fn: fn(integration?.IntegrationUri) }));
  }
  const urlOf = (id: string) => `https://${id.toLowerCase()}.lambda-url.${LOCAL_REGION}.on.aws/`;
  for (const [id, url] of resourcesOfType(stack, 'AWS::Lambda::Url')) {
    const { TargetFunctionArn, InvokeMode, Cors } = propertiesOf<{
      TargetFunctionArn: string;
      InvokeMode?: 'BUFFERED' | 'RESPONSE_STREAM';
      Cors?: FunctionUrlCors;
    }>(url);
    let handler: RequestHandler | undefined;
    await serve(urlOf(id), (request, response) => (handler ??= functionUrl(fn(TargetFunctionArn), InvokeMode ?? 'BUFFERED', Cors))(request, response));
  }
  const distributions = resourcesOfType(stack, 'AWS::CloudFront::Distribution');
  const cloudFrontFunctions = new Map(
    resourcesOfType(stack, 'AWS::CloudFront::Function').map(([id, resource]) => [id, String(resource.Properties.FunctionCode)]),
  );
  const behaviorsOf = new Map<string, DistributionBehavior[]>();
  for (const [id] of distributions) {
    const behaviors: DistributionBehavior[] = [];
    behaviorsOf.set(id, behaviors);
    await serve(`${id.toLowerCase()}.cloudfront.net`, distribution(behaviors));
  }
  for (const [id, resource] of distributions) behaviorsOf.get(id)!.push(...distributionBehaviors(resource.Properties, hosts, cloudFrontFunctions));
  return {
    connectRoutes: () => {
      for (const route of lazyRoutes) route();
    },
    routes: () => [...routesOf.values()].flat(),
  };
}

interface CfnBehavior {
  PathPattern?: string;
  TargetOriginId: string;
  FunctionAssociations?: { EventType: string; FunctionARN: string }[];
}
interface CfnOrigin {
  Id: string;
  DomainName: string;
  S3OriginConfig?: unknown;
  OriginCustomHeaders?: { HeaderName: string; HeaderValue: string }[];
}

/** A distribution's behaviours in CloudFront's order (the ordered ones first, the default last), with their origins. */
function distributionBehaviors(properties: Record<string, unknown>, hosts: Hosts, functionCode: Map<string, string>): DistributionBehavior[] {
  const config = properties.DistributionConfig as { CacheBehaviors?: CfnBehavior[]; DefaultCacheBehavior: CfnBehavior; Origins: CfnOrigin[] };
  const origins = new Map(config.Origins.map((origin) => [origin.Id, origin]));
  return [...(config.CacheBehaviors ?? []), config.DefaultCacheBehavior].map((behavior) => {
    const origin = origins.get(behavior.TargetOriginId)!;
    const viewerRequest = behavior.FunctionAssociations?.find((association) => association.EventType === 'viewer-request');
    const code = viewerRequest ? functionCode.get(idOfArn(viewerRequest.FunctionARN)) : undefined;
    return {
      ...(behavior.PathPattern ? { pathPattern: behavior.PathPattern } : {}),
      origin: origin.S3OriginConfig
        ? { kind: 's3' as const }
        : {
            kind: 'http' as const,
            target: hosts.origin(hostOf(origin.DomainName)),
            customHeaders: Object.fromEntries(
              (origin.OriginCustomHeaders ?? []).map((header) => [header.HeaderName.toLowerCase(), hosts.localize(header.HeaderValue)]),
            ),
          },
      ...(code ? { viewerRequest: code } : {}),
    };
  });
}
