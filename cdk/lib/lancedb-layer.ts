import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, linkSync, mkdirSync, readdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative } from 'node:path';
import { AssetHashType, DockerImage } from 'aws-cdk-lib';
import { Architecture, Code, LayerVersion, Runtime } from 'aws-cdk-lib/aws-lambda';
import type { Construct } from 'constructs';
import { REPO_ROOT } from './repo-paths';

/**
 * The packages the knowledge index needs at run time and esbuild cannot bundle (lambda-bundling.ts leaves them
 * external): LanceDB's JavaScript, its native module for Linux x64 (glibc, as Amazon Linux 2023 is), and the Arrow
 * library both LanceDB and lance-index.ts build tables with (one copy, so LanceDB recognises the schema).
 */
export const LANCEDB_LAYER_ROOTS = ['@lancedb/lancedb', '@lancedb/lancedb-linux-x64-gnu', 'apache-arrow'] as const;

/**
 * The only architecture the layer runs on: npm installed LanceDB's native module for this machine (x64) alone, and
 * building the arm64 one would take another install or Docker. The functions that open the index run on x86_64.
 */
export const LANCEDB_ARCHITECTURE = Architecture.X86_64;

/** Lambda's limit on a function's code and layers together, unzipped. */
export const LAMBDA_UNZIPPED_LIMIT_BYTES = 250 * 1024 * 1024;

/** Where the layer's packages sit in the layer, as the Node.js runtime looks for them (`/opt/nodejs/node_modules`). */
export const LAYER_NODE_MODULES = 'nodejs/node_modules';

const ROOT_NODE_MODULES = join(REPO_ROOT, 'node_modules');

interface InstalledPackage {
  /** Its folder under the repository's node_modules (nested folders as npm laid them out). */
  dir: string;
  version: string;
}

/** Where Node finds `name` from the package in `fromDir`: the first node_modules on its lookup paths that holds it. */
function packageDirFrom(fromDir: string, name: string): string | undefined {
  const lookup = createRequire(join(fromDir, 'package.json')).resolve.paths(name) ?? [];
  return lookup.map((nodeModules) => join(nodeModules, name)).find((candidate) => existsSync(join(candidate, 'package.json')));
}

/**
 * The layer's packages as npm installed them: the roots and, transitively, their dependencies (type packages
 * skipped: nothing loads them at run time), each at the folder npm put it in, so nested versions stay nested.
 */
export function lancedbLayerPackages(): InstalledPackage[] {
  const found = new Map<string, InstalledPackage>();
  const visit = (dir: string) => {
    if (found.has(dir)) return;
    const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { version: string; dependencies?: Record<string, string> };
    found.set(dir, { dir, version: manifest.version });
    for (const name of Object.keys(manifest.dependencies ?? {})) {
      if (name.startsWith('@types/')) continue;
      const dependency = packageDirFrom(dir, name);
      if (!dependency) throw new Error(`${name}, a dependency of ${relative(REPO_ROOT, dir)}, is not installed: run npm install`);
      visit(dependency);
    }
  };
  for (const root of LANCEDB_LAYER_ROOTS) {
    const dir = packageDirFrom(REPO_ROOT, root);
    if (!dir) throw new Error(`${root} is not installed (the knowledge index's layer needs it): run npm install on linux x64`);
    visit(dir);
  }
  return [...found.values()].sort((a, b) => a.dir.localeCompare(b.dir));
}

/**
 * Puts the packages into `outputDir/nodejs/node_modules`, each without its own nested node_modules (those are put as
 * packages of their own). Each file is hard-linked when `outputDir` is on node_modules' file system (160 MB not
 * copied at every synth; CDK zips the asset's files for upload either way), else copied; symbolic links are followed.
 */
export function writeLancedbLayer(outputDir: string): void {
  for (const { dir } of lancedbLayerPackages()) linkTree(dir, join(outputDir, LAYER_NODE_MODULES, relative(ROOT_NODE_MODULES, dir)));
}

function linkTree(source: string, target: string): void {
  mkdirSync(target, { recursive: true });
  for (const entry of readdirSync(source, { withFileTypes: true })) {
    if (entry.name === 'node_modules') continue;
    const from = entry.isSymbolicLink() ? realpathSync(join(source, entry.name)) : join(source, entry.name);
    const to = join(target, entry.name);
    if (statSync(from).isDirectory()) linkTree(from, to);
    else linkOrCopy(from, to);
  }
}

function linkOrCopy(from: string, to: string): void {
  try {
    linkSync(from, to);
  } catch (error) {
    // Another file system (EXDEV), or one without hard links.
    if (!['EXDEV', 'EPERM', 'ENOTSUP', 'EMLINK'].includes((error as NodeJS.ErrnoException).code ?? '')) throw error;
    copyFileSync(from, to);
  }
}

/**
 * LanceDB as a Lambda layer, built from the installed node_modules by linking or copying (CDK's local bundling: no
 * Docker, no second install). Its asset hash is the packages and their versions, so an unchanged lockfile reuses the asset
 * without hashing 160 MB.
 */
export function createLancedbLayer(scope: Construct, id: string): LayerVersion {
  const packages = lancedbLayerPackages();
  const hash = createHash('sha256')
    .update(JSON.stringify(packages.map((pkg) => [relative(ROOT_NODE_MODULES, pkg.dir), pkg.version])))
    .digest('hex');
  return new LayerVersion(scope, id, {
    description: `LanceDB ${packages.find((pkg) => pkg.dir.endsWith('@lancedb/lancedb'))?.version} with its Linux x64 native module and Apache Arrow (the knowledge index)`,
    compatibleRuntimes: [Runtime.NODEJS_22_X],
    compatibleArchitectures: [LANCEDB_ARCHITECTURE],
    code: Code.fromAsset(join(REPO_ROOT, 'cdk/lib/layers/lancedb'), {
      assetHashType: AssetHashType.CUSTOM,
      assetHash: hash,
      bundling: {
        // Never used: local bundling below always succeeds, and the platform builds without Docker.
        image: DockerImage.fromRegistry('no-docker-bundling'),
        local: {
          tryBundle(outputDir: string) {
            writeLancedbLayer(outputDir);
            return true;
          },
        },
      },
    }),
  });
}
