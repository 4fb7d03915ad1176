import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { PlatformConfig } from '../config/config';
import type { BlobStore } from '../blob/blob-store';
import type { Embedder } from './embedder';
import type { KnowledgeIndex } from './knowledge-index';

/** What the knowledge domain keeps outside DynamoDB: the search index, the files, and the embedding model if any. */
export interface KnowledgeStores {
  index: KnowledgeIndex;
  blobs: BlobStore;
  embedder?: Embedder;
}

const isS3 = (uri: string) => uri.startsWith('s3://');

async function blobStoreAt(uri: string, config: PlatformConfig): Promise<BlobStore> {
  if (!isS3(uri)) return (await import('../blob/local-blob-store')).localBlobStore(uri);
  // Loaded only where files live in S3, so the local platform never loads the S3 client.
  return (await import('../blob/s3-blob-store')).s3BlobStore(uri, config.region, config.s3Endpoint);
}

/**
 * LanceDB's S3 settings (its object_store's keys). The credentials are the function's own, passed as the SDK reads
 * them (the role's keys in the environment): LanceDB's native code reads the operating system's environment, not
 * Node's `process.env`, which differ in a worker thread (the bundled platform's Lambda sandboxes). Concurrent writers
 * need no lock table: LanceDB commits a version with an S3 conditional PUT (If-None-Match), so one of two writers of
 * the same version fails and retries (docs/deploy.md).
 */
export function lanceS3Options(config: PlatformConfig, env: NodeJS.ProcessEnv = process.env): Record<string, string> {
  const credentials = { aws_access_key_id: env.AWS_ACCESS_KEY_ID, aws_secret_access_key: env.AWS_SECRET_ACCESS_KEY, aws_session_token: env.AWS_SESSION_TOKEN };
  return {
    region: config.region,
    ...Object.fromEntries(Object.entries(credentials).filter((entry): entry is [string, string] => Boolean(entry[1]))),
    ...(config.s3Endpoint ? { aws_endpoint: config.s3Endpoint, allow_http: String(config.s3Endpoint.startsWith('http://')) } : {}),
  };
}

/**
 * Opens the stores the config names (KNOWLEDGE_INDEX_URI, KNOWLEDGE_BLOB_URI: directories locally, `s3://` URIs in
 * AWS), once, on first use.
 */
export function lazyKnowledgeStores(config: PlatformConfig): (() => Promise<KnowledgeStores>) | undefined {
  const { knowledgeIndexUri, knowledgeBlobUri } = config;
  if (!knowledgeIndexUri || !knowledgeBlobUri) return undefined;
  let opened: Promise<KnowledgeStores> | undefined;
  return () =>
    (opened ??= (async () => {
      // Loaded on first use: a function that never touches knowledge never loads LanceDB, Arrow or an embedding provider.
      const [{ resolveEmbedder }, { openLanceIndex }] = await Promise.all([import('./embedder'), import('./lance-index')]);
      const embedder = resolveEmbedder(config.embeddingModel);
      const [index, blobs] = await Promise.all([
        openLanceIndex(knowledgeIndexUri, {
          ...(isS3(knowledgeIndexUri) ? { storageOptions: lanceS3Options(config) } : {}),
          ...(embedder ? { dimensions: await embedder.dimensions() } : {}),
        }),
        blobStoreAt(knowledgeBlobUri, config),
      ]);
      return { index, blobs, ...(embedder ? { embedder } : {}) };
    })());
}

/** The local platform's knowledge folders: under its data dir, or a fresh temporary folder (`temporary`, removed at stop) for an in-memory platform. */
export function localKnowledgeLocations(dataDir: string | undefined) {
  const temporary = dataDir ? undefined : join(tmpdir(), `knowledge-${process.pid}-${Date.now()}`);
  const root = join(dataDir ?? temporary!, 'knowledge');
  return { KNOWLEDGE_INDEX_URI: join(root, 'index'), KNOWLEDGE_BLOB_URI: join(root, 'files'), temporary };
}
