import type { Deps } from '../../infra/deps';
import { s3BlobStore } from '../../infra/blob/s3-blob-store';

/** The wiring of a function that reads inbound mail's files (raw MIME, attachments): MAIL_BLOB_URI's bucket, when set. */
export const withInboundMail = (deps: Deps, blobUri = process.env.MAIL_BLOB_URI): Deps =>
  blobUri ? { ...deps, inboundMail: { blobs: s3BlobStore(blobUri, deps.config.region) } } : deps;
