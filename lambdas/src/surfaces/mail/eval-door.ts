import type { LanguageModel } from 'ai';
import type { ScenarioDoor } from '../../domains/evals/doors';
import { sandboxedReplyDoor } from '../widget/eval-door';
import { streamEmailReply } from './email-reply';

/**
 * The e-mail door of an eval: each turn a mail from the customer, answered by the e-mail answer path
 * (streamEmailReply: the e-mail prompt, citations as plain links, no widget marker), its tools sandboxed. A mail has
 * no page: a scenario's `page` is not given to it.
 */
export const emailDoor = (model: LanguageModel): ScenarioDoor =>
  sandboxedReplyDoor(model, (deps, input) => streamEmailReply(deps, { ...input, body: { ...input.body, page: undefined } }));
