import { DeleteObjectsCommand, GetObjectCommand, ListObjectsV2Command, NoSuchKey, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { checkedKey, type BlobStore } from './blob-store';

/** Blobs in S3 under `s3://bucket/prefix` (the deployed platform's knowledge files); `endpoint`: another S3 than AWS's, addressed by path. */
export function s3BlobStore(uri: string, region: string, endpoint?: string): BlobStore {
  const { hostname: bucket, pathname } = new URL(uri);
  const base = pathname.replace(/^\/+|\/+$/g, '');
  const keyOf = (key: string) => (base ? `${base}/${checkedKey(key)}` : checkedKey(key));
  const s3 = new S3Client({ region, ...(endpoint ? { endpoint, forcePathStyle: true } : {}) });
  const list = async (prefix: string): Promise<string[]> => {
    const keys: string[] = [];
    let token: string | undefined;
    do {
      const page = await s3.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: keyOf(prefix), ContinuationToken: token }));
      keys.push(...(page.Contents ?? []).flatMap((object) => (object.Key ? [object.Key] : [])));
      token = page.NextContinuationToken;
    } while (token);
    return keys;
  };
  return {
    async put(key, body, contentType) {
      await s3.send(new PutObjectCommand({ Bucket: bucket, Key: keyOf(key), Body: body, ContentType: contentType }));
    },
    async get(key) {
      try {
        const object = await s3.send(new GetObjectCommand({ Bucket: bucket, Key: keyOf(key) }));
        return object.Body ? await object.Body.transformToByteArray() : undefined;
      } catch (error) {
        if (error instanceof NoSuchKey) return undefined;
        throw error;
      }
    },
    async deletePrefix(prefix) {
      const keys = await list(prefix);
      for (let at = 0; at < keys.length; at += 1000) {
        await s3.send(new DeleteObjectsCommand({ Bucket: bucket, Delete: { Objects: keys.slice(at, at + 1000).map((Key) => ({ Key })) } }));
      }
    },
    async list(prefix) {
      return (await list(prefix)).map((key) => (base ? key.slice(base.length + 1) : key));
    },
    keyOfObject(inBucket, objectKey) {
      if (inBucket !== bucket) return undefined;
      if (!base) return objectKey;
      return objectKey.startsWith(`${base}/`) ? objectKey.slice(base.length + 1) : undefined;
    },
    async presignPut(key, upload) {
      const headers = { 'content-type': upload.contentType, 'content-length': String(upload.bytes) };
      // The type and the length are signed: S3 refuses a PUT of another size or type (SignatureDoesNotMatch).
      const url = await getSignedUrl(
        s3,
        new PutObjectCommand({ Bucket: bucket, Key: keyOf(key), ContentType: upload.contentType, ContentLength: upload.bytes }),
        {
          expiresIn: upload.seconds,
          signableHeaders: new Set(Object.keys(headers)),
        },
      );
      return { url, headers };
    },
  };
}
