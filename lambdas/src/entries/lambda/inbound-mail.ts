import { depsFromEnv } from './deps-from-env';
import { withMail } from './with-mail';
import { withSkillHost } from './with-skill-host';
import { withTraceFlush } from './with-trace-flush';
import { s3BlobStore } from '../../infra/blob/s3-blob-store';
import { resolveModel } from '../../infra/model';
import { createMailConsumer } from '../../surfaces/mail/consumer';

/** Lambda entry of the `mail` queue consumer: SES receiving's notifications (raw MIME in MAIL_BLOB_URI's bucket) and the platform's own mail messages. */
const base = withMail(withSkillHost(await depsFromEnv()));
// Without MAIL_BLOB_URI every mail fails with that name (receive.ts mailBlobs) and is retried, then dead-lettered.
const blobUri = process.env.MAIL_BLOB_URI;
const deps = { ...base, ...(blobUri ? { inboundMail: { blobs: s3BlobStore(blobUri, base.config.region, base.config.s3Endpoint) } } : {}) };
export const handler = withTraceFlush(createMailConsumer(deps, resolveModel(deps.config.model)));
