import { relative } from 'node:path';
import { AssetHashType, DockerImage, Duration, RemovalPolicy, Validations } from 'aws-cdk-lib';
import { Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Architecture, Code, Function as LambdaFunction, Runtime, type ILayerVersion } from 'aws-cdk-lib/aws-lambda';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';
import { buildSync } from 'esbuild';
import { lambdaBuildOptions, providerAliases } from './lambda-bundling';
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
 * A function's code: its entry bundled by esbuild on this machine (never in Docker) as LAMBDA_BUNDLING says, into
 * `index.mjs` and the chunks its dynamic imports load on demand. aws-cdk-lib's NodejsFunction cannot split a bundle
 * (it passes esbuild one output file), hence local asset bundling; the asset is hashed by its output, as NodejsFunction
 * hashes it.
 */
function bundledCode(entry: string, model: string | undefined): Code {
  return Code.fromAsset(REPO_ROOT, {
    assetHashType: AssetHashType.OUTPUT,
    bundling: {
      // Required by the API, never pulled: local bundling always succeeds or throws.
      image: DockerImage.fromRegistry('local-bundling-only'),
      // Never run either, but part of CDK's asset cache key, which cannot see inside `local`: without the entry and
      // MODEL here, every function of the app would get the first one's bundle.
      command: ['esbuild', relative(REPO_ROOT, entry), `--model=${model ?? ''}`],
      local: {
        tryBundle(outputDir) {
          buildSync({ entryPoints: [entry], outdir: outputDir, ...lambdaBuildOptions(providerAliases(model)) });
          return true;
        },
      },
    },
  });
}

/**
 * Why cdk-nag's "latest runtime" rule is acknowledged: the code, its bundle target and every test run on Node 22 (the
 * `node` devDependency), so production runs nodejs22.x until a deliberate upgrade moves all of them together.
 */
export const NODE_RUNTIME_PINNED = 'Pinned to nodejs22.x, the Node version the bundle targets and every test runs on; upgraded deliberately, not by a default';

/**
 * A Lambda in the platform's one shape: Node.js 22 on arm64 (unless a native layer asks for x86_64), bundled by the
 * local esbuild into minified ESM with a source map, as LAMBDA_BUNDLING says (the runtime's AWS SDK left out).
 */
export function createNodeFunction(scope: Construct, id: string, props: NodeFunctionProps): LambdaFunction {
  const logGroup = new LogGroup(scope, `${id}Logs`, { retention: RetentionDays.ONE_MONTH, removalPolicy: RemovalPolicy.DESTROY });
  // Its own role, allowed to write only to its own log group: the AWS-managed AWSLambdaBasicExecutionRole would let it
  // create and write any log group of the account. Grants (tables, queues, secrets) are added to this role.
  const role = new Role(scope, `${id}Role`, { assumedBy: new ServicePrincipal('lambda.amazonaws.com') });
  logGroup.grant(role, 'logs:CreateLogStream', 'logs:PutLogEvents');
  const fn = new LambdaFunction(scope, id, {
    code: bundledCode(props.entry, props.model),
    handler: 'index.handler',
    runtime: Runtime.NODEJS_22_X,
    architecture: props.architecture ?? Architecture.ARM_64,
    ...(props.layers ? { layers: props.layers } : {}),
    timeout: Duration.seconds(props.timeoutSeconds),
    memorySize: props.memoryMb,
    environment: props.environment,
    logGroup,
    role,
  });
  Validations.of(fn).acknowledge({ id: 'AwsSolutions-L1', reason: NODE_RUNTIME_PINNED });
  return fn;
}
