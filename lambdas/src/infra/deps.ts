import type { PlatformConfig } from './config/config';
import type { SkillHost } from './config/skill-host';
import type { QueueSender } from './queue/queue';
import type { Store } from './store/dynamo';
import type { MailTransport } from './mail/mail';
import type { KnowledgeStores } from './search/knowledge-stores';

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
}
