import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { accessKeyIdForRole } from './aws-services';
import { LOCAL_REGION, idOfArn, propertiesOf, resourcesOfType, type ResolvedStack } from './cloudformation';
import type { Hosts } from './hosts';
import { LambdaFunction } from './lambda-function';

const REPO_ROOT = resolve(fileURLToPath(new URL('.', import.meta.url)), '../../../..');

interface FunctionProperties {
  Handler: string;
  Runtime: string;
  Timeout?: number;
  MemorySize?: number;
  Role: string;
  Environment?: { Variables?: Record<string, string> };
  Layers?: string[];
}

export interface StackFunctionsOptions {
  cdkOut: string;
  /** The template's addresses in the functions' environments become these local ones. */
  hosts: Hosts;
  /** The local endpoints of the emulated AWS services. */
  endpoints: { dynamo: string; aws: string; s3: string };
  logs: 'inherit' | 'silent';
}

/**
 * Every Node.js function of the template, by logical id, loaded from its asset with the environment the template
 * gives it (its addresses localized) and what the Lambda runtime adds: the role's credentials and the endpoints of
 * the emulated AWS. Its layers are the layers' asset folders (where Lambda unpacks them: /opt).
 */
export function loadStackFunctions(stack: ResolvedStack, options: StackFunctionsOptions): Map<string, LambdaFunction> {
  const { cdkOut, hosts, endpoints } = options;
  const layerDirs = new Map(
    resourcesOfType(stack, 'AWS::Lambda::LayerVersion').flatMap(([id, layer]) => {
      const assetPath = layer.Metadata?.['aws:asset:path'];
      return typeof assetPath === 'string' ? [[id, join(cdkOut, assetPath)] as const] : [];
    }),
  );
  const sdkFrom = join(REPO_ROOT, 'package.json');
  const functions = new Map<string, LambdaFunction>();
  for (const [id, resource] of resourcesOfType(stack, 'AWS::Lambda::Function')) {
    const properties = propertiesOf<FunctionProperties>(resource);
    const assetPath = resource.Metadata?.['aws:asset:path'];
    if (!properties.Runtime.startsWith('nodejs') || typeof assetPath !== 'string') continue;
    const environment: Record<string, string> = {
      ...Object.fromEntries(Object.entries(properties.Environment?.Variables ?? {}).map(([name, value]) => [name, hosts.localize(String(value))])),
      // What the Lambda runtime sets, and the way to the emulated AWS: the role's credentials and the endpoints.
      AWS_REGION: LOCAL_REGION,
      AWS_DEFAULT_REGION: LOCAL_REGION,
      AWS_LAMBDA_FUNCTION_NAME: id,
      AWS_LAMBDA_FUNCTION_MEMORY_SIZE: String(properties.MemorySize ?? 128),
      AWS_LAMBDA_FUNCTION_VERSION: '$LATEST',
      AWS_EXECUTION_ENV: `AWS_Lambda_${properties.Runtime}`,
      LAMBDA_TASK_ROOT: join(cdkOut, assetPath),
      AWS_ACCESS_KEY_ID: accessKeyIdForRole(properties.Role),
      AWS_SECRET_ACCESS_KEY: 'local',
      AWS_SESSION_TOKEN: 'local',
      AWS_ENDPOINT_URL_DYNAMODB: endpoints.dynamo,
      AWS_ENDPOINT_URL_SQS: endpoints.aws,
      AWS_ENDPOINT_URL_SECRETS_MANAGER: endpoints.aws,
      AWS_ENDPOINT_URL_SESV2: endpoints.aws,
      AWS_ENDPOINT_URL_S3: endpoints.s3,
      // The internet is this machine here: webhooks and skills live on loopback.
      WEBHOOK_ALLOW_LOCAL: '1',
      PATH: process.env.PATH ?? '',
    };
    const layers = (properties.Layers ?? []).map((layer) => {
      const dir = layerDirs.get(idOfArn(layer));
      if (!dir) throw new Error(`${id}: layer ${layer} is not a layer asset of this stack`);
      return dir;
    });
    const spec = {
      id,
      assetDir: join(cdkOut, assetPath),
      handler: properties.Handler,
      timeoutSeconds: properties.Timeout ?? 3,
      memoryMb: properties.MemorySize ?? 128,
      layers,
    };
    functions.set(id, new LambdaFunction(spec, environment, sdkFrom, options.logs));
  }
  return functions;
}
