import type { Deps } from '../../infra/deps';
import { jsonResult } from '../../infra/http/event';
import { routeHandler } from '../../infra/http/routes';
import { readMailbox } from '../../infra/mail/local-mailbox';

/** Local platform only (never deployed): the mail the platform sent, newest first. */
export const DEV_MAIL_ROUTE = '/dev/mail.json';

export const createDevMailHandler = (deps: Deps) => routeHandler(DEV_MAIL_ROUTE, ['GET'], async () => jsonResult(200, { mail: await readMailbox(deps.store) }));
