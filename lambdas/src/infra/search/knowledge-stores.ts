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

async function blobStoreAt(uri: string, region: string): Promise<BlobStore> {
  if (!isS3(uri)) return (await import('../blob/local-blob-store')).localBlobStore(uri);
  // Loaded only where files live in S3, so the local platform never loads the S3 client.
  return (await import('../blob/s3-blob-store')).s3BlobStore(uri, region);
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
          ...(isS3(knowledgeIndexUri) ? { storageOptions: { region: config.region } } : {}),
          ...(embedder ? { dimensions: await embedder.dimensions() } : {}),
        }),
        blobStoreAt(knowledgeBlobUri, config.region),
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
