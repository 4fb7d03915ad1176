import type { Deps } from '../../infra/deps';
import { sesTransport } from '../../infra/mail/ses';

/** The wiring of a function that sends e-mail: Amazon SES, from the configured MAIL_FROM. */
export const withMail = (deps: Deps): Deps => ({
  ...deps,
  mail: sesTransport({ region: deps.config.region, fromAddress: deps.config.mailFrom, domain: deps.config.agentMailDomain }),
});
