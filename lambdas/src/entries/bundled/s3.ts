import { createHash, randomUUID } from 'node:crypto';
import { closeSync, existsSync, mkdirSync, openSync, readdirSync, readFileSync, readSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { join } from 'node:path';
import { LOCAL_ACCOUNT } from './cloudformation';
import type { RolePolicies } from './iam';

/**
 * Amazon S3 on loopback, path-style (`endpoint/bucket/key`), with the subset the platform's S3 clients use: the AWS
 * SDK (the knowledge files, presigned uploads) and LanceDB's object_store (the index): GET with Range, HEAD, PUT with
 * the conditional headers LanceDB commits with (If-None-Match: *, If-Match), CopyObject, DELETE, DeleteObjects,
 * ListObjectsV2 and multipart uploads. Objects are files under `root`, so they outlive a restart with the tables. Each
 * call is signed with the caller's role (header or presigned query) and refused unless its policies allow it.
 */
export interface S3Options {
  /** Bucket names of the stack. */
  buckets: Set<string>;
  /** Where objects are kept (one folder per bucket). */
  root: string;
  policies: Pick<RolePolicies, 'allows'>;
}

/** The requests answered so far, by S3's billing classes: GET and HEAD (reads), and PUT, POST, LIST (writes); DELETE is free. */
export interface S3RequestCounts {
  get: number;
  put: number;
  list: number;
  delete: number;
}

interface ObjectMeta {
  key: string;
  etag: string;
  size: number;
  contentType: string;
  lastModified: string;
}

class S3Error extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

const xmlEscape = (value: string) => value.replace(/[<>&'"]/g, (char) => `&#${char.charCodeAt(0)};`);
const xmlUnescape = (value: string) =>
  value.replace(/&(#x?[0-9a-fA-F]+|amp|lt|gt|quot|apos);/g, (_, entity: string) => {
    const named: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
    if (named[entity]) return named[entity];
    return String.fromCodePoint(entity.startsWith('#x') ? parseInt(entity.slice(2), 16) : parseInt(entity.slice(1), 10));
  });
const tagValues = (xml: string, tag: string) => [...xml.matchAll(new RegExp(`<${tag}>([\\s\\S]*?)</${tag}>`, 'g'))].map((match) => xmlUnescape(match[1]!));
const xml = (body: string) => `<?xml version="1.0" encoding="UTF-8"?>\n${body}`;
const NS = 'xmlns="http://s3.amazonaws.com/doc/2006-03-01/"';

/** The role a request is signed with: its access key id names the role (aws-services.ts), in the header or a presigned URL's query. */
function roleOf(request: IncomingMessage, url: URL): string | undefined {
  const credential = /Credential=([^,\s]+)/.exec(request.headers.authorization ?? '')?.[1] ?? url.searchParams.get('X-Amz-Credential') ?? '';
  return /^LOCAL([^/]+)\//.exec(credential)?.[1];
}

/** A presigned URL past its expiry is refused, as S3 refuses it. */
function checkPresignedExpiry(url: URL): void {
  const date = url.searchParams.get('X-Amz-Date');
  const expires = Number(url.searchParams.get('X-Amz-Expires'));
  if (!date || !expires) return;
  const signedAt = Date.parse(date.replace(/^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/, '$1-$2-$3T$4:$5:$6Z'));
  if (Date.now() > signedAt + expires * 1000) throw new S3Error(403, 'AccessDenied', 'Request has expired');
}

/** One bucket's objects: `<root>/<bucket>/objects/<encoded key>` with its metadata beside it (`meta/`). */
class BucketFiles {
  private readonly objects: string;
  private readonly meta: string;
  private readonly uploads: string;

  constructor(root: string) {
    this.objects = join(root, 'objects');
    this.meta = join(root, 'meta');
    this.uploads = join(root, 'uploads');
    for (const dir of [this.objects, this.meta, this.uploads]) mkdirSync(dir, { recursive: true });
  }

  private file = (key: string) => encodeURIComponent(key);

  head(key: string): ObjectMeta | undefined {
    const path = join(this.meta, this.file(key));
    return existsSync(path) ? (JSON.parse(readFileSync(path, 'utf8')) as ObjectMeta) : undefined;
  }

  /** The object's bytes, or only those of an inclusive range (read from the file at its offset: LanceDB reads index pages by range). */
  read(key: string, range?: [number, number]): Buffer {
    const path = join(this.objects, this.file(key));
    if (!range) return readFileSync(path);
    const slice = Buffer.alloc(range[1] - range[0] + 1);
    const fd = openSync(path, 'r');
    try {
      readSync(fd, slice, 0, slice.length, range[0]);
    } finally {
      closeSync(fd);
    }
    return slice;
  }

  /** Written under a temporary name, then renamed: a reader never sees half an object. Synchronous, so a conditional check and its write are one step. */
  write(key: string, body: Buffer, contentType: string): ObjectMeta {
    const meta: ObjectMeta = {
      key,
      etag: `"${createHash('md5').update(body).digest('hex')}"`,
      size: body.length,
      contentType,
      lastModified: new Date().toUTCString(),
    };
    const temporary = `.${randomUUID()}.tmp`;
    writeFileSync(join(this.objects, temporary), body);
    renameSync(join(this.objects, temporary), join(this.objects, this.file(key)));
    writeFileSync(join(this.meta, temporary), JSON.stringify(meta));
    renameSync(join(this.meta, temporary), join(this.meta, this.file(key)));
    return meta;
  }

  delete(key: string): void {
    rmSync(join(this.meta, this.file(key)), { force: true });
    rmSync(join(this.objects, this.file(key)), { force: true });
  }

  keys(): string[] {
    return readdirSync(this.meta)
      .filter((name) => !name.startsWith('.'))
      .map((name) => decodeURIComponent(name))
      .sort();
  }

  startUpload(): string {
    const id = randomUUID();
    mkdirSync(join(this.uploads, id));
    return id;
  }

  uploadPart(id: string, part: number, body: Buffer): string {
    const dir = join(this.uploads, id);
    if (!existsSync(dir)) throw new S3Error(404, 'NoSuchUpload', 'The specified upload does not exist');
    writeFileSync(join(dir, String(part)), body);
    return `"${createHash('md5').update(body).digest('hex')}"`;
  }

  completeUpload(id: string, parts: number[]): Buffer {
    const dir = join(this.uploads, id);
    if (!existsSync(dir)) throw new S3Error(404, 'NoSuchUpload', 'The specified upload does not exist');
    return Buffer.concat(parts.map((part) => readFileSync(join(dir, String(part)))));
  }

  abortUpload(id: string): void {
    rmSync(join(this.uploads, id), { recursive: true, force: true });
  }
}

/** `bytes=a-b`, `bytes=a-` or `bytes=-n` against an object of `size` bytes: the inclusive range, or undefined for the whole. */
function byteRange(header: string | undefined, size: number): [number, number] | undefined {
  const match = /^bytes=(\d*)-(\d*)$/.exec(header ?? '');
  if (!match) return undefined;
  const [, from, to] = match;
  const range: [number, number] =
    from === '' ? [Math.max(0, size - Number(to)), size - 1] : [Number(from), to === '' ? size - 1 : Math.min(Number(to), size - 1)];
  if (range[0] >= size || range[0] > range[1]) throw new S3Error(416, 'InvalidRange', 'The requested range is not satisfiable');
  return range;
}

async function readBody(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of request as AsyncIterable<Buffer>) chunks.push(chunk);
  return Buffer.concat(chunks);
}

/** The emulated S3, and the write an AWS service makes under a bucket's policy (SES receiving's S3 action), not a role's. */
export interface RunningS3 {
  server: Server;
  endpoint: string;
  requests: S3RequestCounts;
  putAsService(bucket: string, key: string, body: Uint8Array, contentType: string): void;
}

export function startS3(options: S3Options): Promise<RunningS3> {
  const requests: S3RequestCounts = { get: 0, put: 0, list: 0, delete: 0 };
  const buckets = new Map([...options.buckets].map((name) => [name, new BucketFiles(join(options.root, name))]));

  const authorize = (role: string | undefined, action: string, resource: string) => {
    if (!role || !options.policies.allows(role, action, resource)) {
      throw new S3Error(
        403,
        'AccessDenied',
        `User: arn:aws:sts::${LOCAL_ACCOUNT}:assumed-role/${role ?? 'anonymous'} is not authorized to perform: ${action} on resource: ${resource}`,
      );
    }
  };

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', 'http://s3.local');
    const [bucketName = '', ...rest] = url.pathname.slice(1).split('/');
    const key = rest.map((part) => decodeURIComponent(part)).join('/');
    const bucket = buckets.get(bucketName);
    if (!bucket) throw new S3Error(404, 'NoSuchBucket', `The specified bucket does not exist: ${bucketName}`);
    const role = roleOf(request, url);
    checkPresignedExpiry(url);
    const objectArn = `arn:aws:s3:::${bucketName}/${key}`;
    const query = url.searchParams;
    const method = request.method ?? 'GET';
    if (method === 'DELETE') requests.delete += 1;
    else if (method === 'GET' && !key) requests.list += 1;
    else if (method === 'GET' || method === 'HEAD') requests.get += 1;
    else requests.put += 1;
    const send = (status: number, body = '', headers: Record<string, string | number> = {}) =>
      void response.writeHead(status, { ...(body ? { 'content-type': 'application/xml' } : {}), ...headers }).end(body);

    if (!key) {
      if (method === 'GET' && query.get('list-type') === '2') {
        authorize(role, 's3:ListBucket', `arn:aws:s3:::${bucketName}`);
        return send(200, listObjects(bucketName, bucket, query));
      }
      if (method === 'POST' && query.has('delete')) {
        const keys = tagValues((await readBody(request)).toString('utf8'), 'Key');
        for (const each of keys) authorize(role, 's3:DeleteObject', `arn:aws:s3:::${bucketName}/${each}`);
        for (const each of keys) bucket.delete(each);
        return send(200, xml(`<DeleteResult ${NS}>${keys.map((each) => `<Deleted><Key>${xmlEscape(each)}</Key></Deleted>`).join('')}</DeleteResult>`));
      }
      throw new S3Error(501, 'NotImplemented', `The bundled platform does not emulate ${method} on a bucket with ${[...query.keys()].join(',')}`);
    }

    switch (method) {
      case 'GET':
      case 'HEAD': {
        authorize(role, 's3:GetObject', objectArn);
        const meta = bucket.head(key);
        if (!meta) throw new S3Error(404, 'NoSuchKey', 'The specified key does not exist.');
        const headers = { etag: meta.etag, 'last-modified': meta.lastModified, 'content-type': meta.contentType, 'accept-ranges': 'bytes' };
        if (request.headers['if-none-match'] === meta.etag) return send(304, '', headers);
        const range = byteRange(request.headers.range, meta.size);
        if (method === 'HEAD') return send(200, '', { ...headers, 'content-length': meta.size });
        if (!range) return void response.writeHead(200, { ...headers, 'content-length': meta.size }).end(bucket.read(key));
        const slice = bucket.read(key, range);
        return void response
          .writeHead(206, { ...headers, 'content-length': slice.length, 'content-range': `bytes ${range[0]}-${range[1]}/${meta.size}` })
          .end(slice);
      }
      case 'PUT': {
        authorize(role, 's3:PutObject', objectArn);
        const body = await readBody(request);
        if (query.has('uploadId')) return send(200, '', { etag: bucket.uploadPart(query.get('uploadId')!, Number(query.get('partNumber')), body) });
        const copySource = request.headers['x-amz-copy-source'];
        if (typeof copySource === 'string') {
          const [sourceBucket = '', ...sourceKey] = decodeURIComponent(copySource.replace(/^\//, '')).split('/');
          authorize(role, 's3:GetObject', `arn:aws:s3:::${sourceBucket}/${sourceKey.join('/')}`);
          const from = buckets.get(sourceBucket);
          const sourceMeta = from?.head(sourceKey.join('/'));
          if (!from || !sourceMeta) throw new S3Error(404, 'NoSuchKey', 'The specified key does not exist.');
          checkPreconditions(request, bucket.head(key));
          const meta = bucket.write(key, from.read(sourceKey.join('/')), sourceMeta.contentType);
          return send(
            200,
            xml(
              `<CopyObjectResult ${NS}><ETag>${xmlEscape(meta.etag)}</ETag><LastModified>${new Date(meta.lastModified).toISOString()}</LastModified></CopyObjectResult>`,
            ),
          );
        }
        checkPreconditions(request, bucket.head(key));
        const meta = bucket.write(key, body, String(request.headers['content-type'] ?? 'application/octet-stream'));
        return send(200, '', { etag: meta.etag });
      }
      case 'POST': {
        authorize(role, 's3:PutObject', objectArn);
        if (query.has('uploads')) {
          return send(
            200,
            xml(
              `<InitiateMultipartUploadResult ${NS}><Bucket>${bucketName}</Bucket><Key>${xmlEscape(key)}</Key><UploadId>${bucket.startUpload()}</UploadId></InitiateMultipartUploadResult>`,
            ),
          );
        }
        if (query.has('uploadId')) {
          const id = query.get('uploadId')!;
          const parts = tagValues((await readBody(request)).toString('utf8'), 'PartNumber').map(Number);
          const body = bucket.completeUpload(id, parts);
          checkPreconditions(request, bucket.head(key));
          const meta = bucket.write(key, body, 'application/octet-stream');
          bucket.abortUpload(id);
          return send(
            200,
            xml(
              `<CompleteMultipartUploadResult ${NS}><Bucket>${bucketName}</Bucket><Key>${xmlEscape(key)}</Key><ETag>${xmlEscape(meta.etag)}</ETag></CompleteMultipartUploadResult>`,
            ),
          );
        }
        throw new S3Error(501, 'NotImplemented', 'The bundled platform does not emulate this POST');
      }
      case 'DELETE':
        if (query.has('uploadId')) {
          authorize(role, 's3:AbortMultipartUpload', objectArn);
          bucket.abortUpload(query.get('uploadId')!);
          return send(204);
        }
        authorize(role, 's3:DeleteObject', objectArn);
        bucket.delete(key);
        return send(204);
      default:
        throw new S3Error(405, 'MethodNotAllowed', `${method} is not allowed`);
    }
  }

  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      const failure = error instanceof S3Error ? error : new S3Error(500, 'InternalError', String(error));
      if (response.headersSent) return void response.end();
      const body = request.method === 'HEAD' ? '' : xml(`<Error><Code>${failure.code}</Code><Message>${xmlEscape(failure.message)}</Message></Error>`);
      response.writeHead(failure.status, { 'content-type': 'application/xml', 'x-amz-error-code': failure.code }).end(body);
    });
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () =>
      resolve({
        server,
        endpoint: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
        requests,
        putAsService(bucketName, key, body, contentType) {
          const bucket = buckets.get(bucketName);
          if (!bucket) throw new Error(`The specified bucket does not exist: ${bucketName}`);
          bucket.write(key, Buffer.from(body), contentType);
        },
      }),
    );
  });
}

/** S3's conditional writes: If-None-Match: * (create only) and If-Match: <etag> (replace that version only). */
function checkPreconditions(request: IncomingMessage, existing: ObjectMeta | undefined): void {
  const ifNoneMatch = request.headers['if-none-match'];
  const ifMatch = request.headers['if-match'];
  if (ifNoneMatch === '*' && existing) throw new S3Error(412, 'PreconditionFailed', 'At least one of the pre-conditions you specified did not hold');
  if (ifMatch !== undefined && (!existing || (ifMatch !== '*' && ifMatch !== existing.etag))) {
    throw new S3Error(existing ? 412 : 404, existing ? 'PreconditionFailed' : 'NoSuchKey', 'At least one of the pre-conditions you specified did not hold');
  }
}

/** ListObjectsV2: keys after the continuation token (or StartAfter), under the prefix, folded at the delimiter, 1,000 (or max-keys) a page. */
function listObjects(bucketName: string, bucket: BucketFiles, query: URLSearchParams): string {
  const prefix = query.get('prefix') ?? '';
  const delimiter = query.get('delimiter') ?? '';
  const maxKeys = Math.min(1000, Number(query.get('max-keys') ?? 1000));
  const after = query.get('continuation-token')
    ? Buffer.from(query.get('continuation-token')!, 'base64url').toString('utf8')
    : (query.get('start-after') ?? '');
  const contents: ObjectMeta[] = [];
  const prefixes = new Set<string>();
  let last = '';
  let truncated = false;
  for (const key of bucket.keys()) {
    if (!key.startsWith(prefix) || key <= after) continue;
    const folded = delimiter ? key.indexOf(delimiter, prefix.length) : -1;
    const entry = folded >= 0 ? key.slice(0, folded + delimiter.length) : key;
    if (folded >= 0 && prefixes.has(entry)) continue;
    if (contents.length + prefixes.size >= maxKeys) {
      truncated = true;
      break;
    }
    if (folded >= 0) prefixes.add(entry);
    else contents.push(bucket.head(key)!);
    last = folded >= 0 ? `${entry}\u{10FFFF}` : key;
  }
  const items = contents
    .map(
      (meta) =>
        `<Contents><Key>${xmlEscape(meta.key)}</Key><LastModified>${new Date(meta.lastModified).toISOString()}</LastModified><ETag>${xmlEscape(meta.etag)}</ETag><Size>${meta.size}</Size><StorageClass>STANDARD</StorageClass></Contents>`,
    )
    .join('');
  const common = [...prefixes].map((each) => `<CommonPrefixes><Prefix>${xmlEscape(each)}</Prefix></CommonPrefixes>`).join('');
  return xml(
    `<ListBucketResult ${NS}><Name>${bucketName}</Name><Prefix>${xmlEscape(prefix)}</Prefix><KeyCount>${contents.length + prefixes.size}</KeyCount><MaxKeys>${maxKeys}</MaxKeys>` +
      (delimiter ? `<Delimiter>${xmlEscape(delimiter)}</Delimiter>` : '') +
      `<IsTruncated>${truncated}</IsTruncated>${truncated ? `<NextContinuationToken>${Buffer.from(last, 'utf8').toString('base64url')}</NextContinuationToken>` : ''}${items}${common}</ListBucketResult>`,
  );
}
