import type { PlatformConfig } from './config/config';
import type { SkillHost } from './config/skill-host';
import type { QueueSender } from './queue/queue';
import type { Store } from './store/dynamo';
import type { MailTransport } from './mail/mail';
import type { KnowledgeStores } from './search/knowledge-stores';
import type { BlobStore } from './blob/blob-store';

/** What every handler needs, built once per Lambda container (or once per local platform). */
export interface Deps {
  store: Store;
  queue: QueueSender;
  config: PlatformConfig;
  now: () => Date;
  /** Platform e-mail (sign-in codes, invitations, the agents' mail): the local mailbox or Amazon SES; absent where nothing mails. */
  mail?: MailTransport;
  /** The platform's skill secrets and built-in skills (read on first use): wired where skills are reached, absent elsewhere. */
  skillHost?: () => SkillHost;
  /** The knowledge index, files and embedder (opened on first use): wired where knowledge is searched or indexed. */
  knowledge?: () => Promise<KnowledgeStores>;
  /** Inbound mail's raw MIME and attachments (MAIL_BLOB_URI), and the DNS resolver its SPF/DKIM/DMARC checks use (a test's offline one; the system's when absent). */
  inboundMail?: { blobs: BlobStore; resolver?: (name: string, rrtype: string) => Promise<string[] | string[][]> };
}
