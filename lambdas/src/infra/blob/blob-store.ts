/**
 * Where knowledge files live (the original upload and its extracted text): a directory on this machine, or S3 in AWS.
 * Keys are slash-separated paths made by the platform (`<workspace>/<source>/<document>/original`), never a caller's.
 */
export interface BlobStore {
  put(key: string, body: Uint8Array, contentType: string): Promise<void>;
  /** The bytes under `key`, or undefined when nothing is stored there. */
  get(key: string): Promise<Uint8Array | undefined>;
  /** Removes every blob whose key starts with `prefix` (a document's or a whole source's files); nothing there is fine. */
  deletePrefix(prefix: string): Promise<void>;
  /** The keys under `prefix` (tests check that a deletion left nothing). */
  list(prefix: string): Promise<string[]>;
  /**
   * A URL a caller PUTs exactly `bytes` bytes of `contentType` to, under `key`, for `seconds`, with the headers to
   * send; only a store a caller can reach has it (S3; not a folder on this machine).
   */
  presignPut?(key: string, upload: { contentType: string; bytes: number; seconds: number }): Promise<{ url: string; headers: Record<string, string> }>;
  /**
   * The key in this store of an object another writer put in S3 by its bucket and full key (SES receiving's S3
   * action); undefined when it lies outside the store. Only an S3 store has it.
   */
  keyOfObject?(bucket: string, objectKey: string): string | undefined;
}

const SAFE_KEY = /^[A-Za-z0-9_-]+(\/[A-Za-z0-9_.-]+)*\/?$/;

/** A key made of the platform's own ids only: no `..`, no absolute path, nothing a caller typed. */
export function checkedKey(key: string): string {
  if (!SAFE_KEY.test(key) || key.split('/').some((part) => part === '..' || part === '.')) throw new Error(`not a blob key: ${key}`);
  return key;
}
