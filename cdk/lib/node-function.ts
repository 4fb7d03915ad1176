import { createRequire } from 'node:module';
import { join } from 'node:path';
import { Duration, RemovalPolicy, Validations } from 'aws-cdk-lib';
import { Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Architecture, Runtime, type ILayerVersion } from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction, OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';
import { LAMBDA_BUNDLING, providerAliases } from './lambda-bundling';
import { REPO_ROOT } from './repo-paths';

export interface NodeFunctionProps {
  /** Absolute path of the handler file; it exports `handler`. */
  entry: string;
  timeoutSeconds: number;
  memoryMb: number;
  environment?: Record<string, string>;
  /** The MODEL setting a model-using function is deployed with: its bundle carries only that provider. */
  model?: string;
  /** Layers holding what the bundle leaves external (the LanceDB layer); they fix the architecture (`architecture`). */
  layers?: ILayerVersion[];
  /** Default arm64; a function with a native layer runs on the layer's architecture. */
  architecture?: Architecture;
}

/**
 * aws-cdk-lib falls back to bundling in Docker when it cannot find esbuild, even with forceDockerBundling off.
 * We have no Docker anywhere, so a missing esbuild must stop synth with a clear message instead.
 */
function assertLocalEsbuild(): void {
  const fromCdkLib = createRequire(createRequire(import.meta.url).resolve('aws-cdk-lib'));
  try {
    fromCdkLib.resolve('esbuild');
  } catch {
    throw new Error('esbuild is not installed where aws-cdk-lib can find it: run `npm install` (bundling never uses Docker)');
  }
}

/**
 * Why cdk-nag's "latest runtime" rule is acknowledged: the code, its bundle target and every test run on Node 22 (the
 * `node` devDependency), so production runs nodejs22.x until a deliberate upgrade moves all of them together.
 */
export const NODE_RUNTIME_PINNED = 'Pinned to nodejs22.x, the Node version the bundle targets and every test runs on; upgraded deliberately, not by a default';

/**
 * A Lambda in the platform's one shape: Node.js 22 on arm64 (unless a native layer asks for x86_64), bundled by the local esbuild into one minified ESM file
 * with a source map, as LAMBDA_BUNDLING says (the runtime's AWS SDK left out).
 */
export function createNodeFunction(scope: Construct, id: string, props: NodeFunctionProps): NodejsFunction {
  assertLocalEsbuild();
  const logGroup = new LogGroup(scope, `${id}Logs`, { retention: RetentionDays.ONE_MONTH, removalPolicy: RemovalPolicy.DESTROY });
  // Its own role, allowed to write only to its own log group: the AWS-managed AWSLambdaBasicExecutionRole would let it
  // create and write any log group of the account. Grants (tables, queues, secrets) are added to this role.
  const role = new Role(scope, `${id}Role`, { assumedBy: new ServicePrincipal('lambda.amazonaws.com') });
  logGroup.grant(role, 'logs:CreateLogStream', 'logs:PutLogEvents');
  const fn = new NodejsFunction(scope, id, {
    entry: props.entry,
    handler: 'handler',
    runtime: Runtime.NODEJS_22_X,
    architecture: props.architecture ?? Architecture.ARM_64,
    ...(props.layers ? { layers: props.layers } : {}),
    timeout: Duration.seconds(props.timeoutSeconds),
    memorySize: props.memoryMb,
    projectRoot: REPO_ROOT,
    depsLockFilePath: join(REPO_ROOT, 'package-lock.json'),
    environment: props.environment,
    bundling: {
      forceDockerBundling: false,
      format: OutputFormat.ESM,
      target: LAMBDA_BUNDLING.target,
      mainFields: [...LAMBDA_BUNDLING.mainFields],
      externalModules: [...LAMBDA_BUNDLING.external],
      esbuildArgs: {
        ...Object.fromEntries(Object.entries({ ...LAMBDA_BUNDLING.alias, ...providerAliases(props.model) }).map(([name, path]) => [`--alias:${name}`, path])),
        '--legal-comments': LAMBDA_BUNDLING.legalComments,
      },
      minify: LAMBDA_BUNDLING.minify,
      sourceMap: LAMBDA_BUNDLING.sourceMap,
      sourcesContent: LAMBDA_BUNDLING.sourcesContent,
      banner: LAMBDA_BUNDLING.banner,
    },
    logGroup,
    role,
  });
  Validations.of(fn).acknowledge({ id: 'AwsSolutions-L1', reason: NODE_RUNTIME_PINNED });
  return fn;
}
