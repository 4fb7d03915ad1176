import { GetObjectCommand, HeadObjectCommand, ListObjectsV2Command, PutObjectCommand, S3Client, S3ServiceException } from '@aws-sdk/client-s3';
import { mkdtempSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startS3 } from '../../src/entries/bundled/s3';
import { configFromEnv } from '../../src/infra/config/config';
import type { IndexRow } from '../../src/infra/search/knowledge-index';
import { openLanceIndex } from '../../src/infra/search/lance-index';
import { lanceS3Options } from '../../src/infra/search/knowledge-stores';

/**
 * The bundled platform's S3 as its two clients use it: the AWS SDK (knowledge files) and LanceDB's object_store (the
 * index), each signed with a role that the policies allow or refuse; and LanceDB's commit on it: two writers that
 * commit versions of one table at the same time lose nothing, because each commit is a conditional PUT.
 */
const BUCKET = 'knowledge';
const WRITER = 'LOCALWriter';
const READER = 'LOCALReader';
let root: string;
let server: Server;
let endpoint: string;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 's3-emulator-'));
  // The writer may do anything in the bucket; the reader only read and list.
  const allows = (role: string, action: string) => role === 'Writer' || action === 's3:GetObject' || action === 's3:ListBucket';
  ({ server, endpoint } = await startS3({ buckets: new Set([BUCKET]), root, policies: { allows } }));
});

afterAll(async () => {
  server?.closeAllConnections();
  await new Promise<void>((done) => (server ? server.close(() => done()) : done()));
  if (root) rmSync(root, { recursive: true, force: true });
});

const client = (accessKeyId: string) =>
  new S3Client({ region: 'us-east-1', endpoint, forcePathStyle: true, credentials: { accessKeyId, secretAccessKey: 'local' } });
const errorOf = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (error: unknown) => (error instanceof S3ServiceException ? error.name : String(error)),
  );

describe('the emulated S3', () => {
  it('stores, ranges, lists and refuses a second create of one key', async () => {
    const s3 = client(WRITER);
    await s3.send(new PutObjectCommand({ Bucket: BUCKET, Key: 'files/a/original', Body: 'hello world', ContentType: 'text/plain' }));
    await s3.send(new PutObjectCommand({ Bucket: BUCKET, Key: 'files/b/original', Body: 'second' }));
    const ranged = await s3.send(new GetObjectCommand({ Bucket: BUCKET, Key: 'files/a/original', Range: 'bytes=6-10' }));
    expect(await ranged.Body!.transformToString()).toBe('world');
    expect(ranged.ContentRange).toBe('bytes 6-10/11');
    expect((await s3.send(new HeadObjectCommand({ Bucket: BUCKET, Key: 'files/a/original' }))).ContentLength).toBe(11);
    const listed = await s3.send(new ListObjectsV2Command({ Bucket: BUCKET, Prefix: 'files/', Delimiter: '/' }));
    expect(listed.CommonPrefixes?.map((prefix) => prefix.Prefix)).toEqual(['files/a/', 'files/b/']);
    const paged = await s3.send(new ListObjectsV2Command({ Bucket: BUCKET, Prefix: 'files/', MaxKeys: 1 }));
    expect([paged.Contents?.map((object) => object.Key), paged.IsTruncated]).toEqual([['files/a/original'], true]);
    const rest = await s3.send(new ListObjectsV2Command({ Bucket: BUCKET, Prefix: 'files/', ContinuationToken: paged.NextContinuationToken }));
    expect(rest.Contents?.map((object) => object.Key)).toEqual(['files/b/original']);
    expect(await errorOf(s3.send(new PutObjectCommand({ Bucket: BUCKET, Key: 'files/a/original', Body: 'again', IfNoneMatch: '*' })))).toBe(
      'PreconditionFailed',
    );
    expect(await errorOf(s3.send(new GetObjectCommand({ Bucket: BUCKET, Key: 'files/none' })))).toBe('NoSuchKey');
  });

  it('holds each call to its role: a reader may not write', async () => {
    expect(await errorOf(client(READER).send(new PutObjectCommand({ Bucket: BUCKET, Key: 'files/c/original', Body: 'x' })))).toBe('AccessDenied');
    expect(await errorOf(client(READER).send(new GetObjectCommand({ Bucket: BUCKET, Key: 'files/a/original' })))).toBeUndefined();
  });
});

describe('LanceDB on the emulated S3', () => {
  const workspaceId = '00000000-0000-4000-8000-00000000e5e3';
  const rows = (documentId: string): IndexRow[] => [
    {
      rowId: `${documentId}#0`,
      documentId,
      sourceId: 'src_s3',
      name: documentId,
      url: null,
      title: `Page ${documentId}`,
      kind: 'passage',
      language: 'en',
      searchText: `Shipping note ${documentId}`,
      text: `Shipping note ${documentId}`,
    },
  ];
  const openWriter = () =>
    openLanceIndex(`s3://${BUCKET}/index`, {
      storageOptions: lanceS3Options({ ...configFromEnv({}), s3Endpoint: endpoint }, { AWS_ACCESS_KEY_ID: WRITER, AWS_SECRET_ACCESS_KEY: 'local' }),
    });

  it('keeps every document two writers commit at the same time (each version a conditional PUT)', async () => {
    const [first, second] = await Promise.all([openWriter(), openWriter()]);
    try {
      await first.replaceDocument(workspaceId, 'doc_seed', rows('doc_seed'));
      const ids = Array.from({ length: 6 }, (_, at) => `doc_${at}`);
      // Alternating writers, all at once: their commits race for the same next versions.
      await Promise.all(ids.map((id, at) => (at % 2 === 0 ? first : second).replaceDocument(workspaceId, id, rows(id))));
      const reader = await openWriter();
      expect(await reader.countRows(workspaceId)).toBe(ids.length + 1);
      expect((await reader.search(workspaceId, { text: 'shipping note doc_3', limit: 3 }))[0]?.documentId).toBe('doc_3');
      reader.close();
    } finally {
      first.close();
      second.close();
    }
  }, 60_000);

  it('answers a warm reader from what another writer committed since (a sandbox that searches while the consumer indexes)', async () => {
    const [reader, writer] = await Promise.all([openWriter(), openWriter()]);
    try {
      expect((await reader.search(workspaceId, { text: 'shipping note doc_late', limit: 1 }))[0]?.documentId).not.toBe('doc_late');
      await writer.replaceDocument(workspaceId, 'doc_late', rows('doc_late'));
      expect((await reader.search(workspaceId, { text: 'shipping note doc_late', limit: 1 }))[0]?.documentId).toBe('doc_late');
    } finally {
      reader.close();
      writer.close();
    }
  }, 60_000);
});
