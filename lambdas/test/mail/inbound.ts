import type { PlatformObserver } from '../../src/entries/local/observer';
import { waitFor } from '../support/wait-for';

/** DNS as mailauth asks it, offline: no record exists (every verdict is then `none`). */
export const noDns = async (): Promise<never> => {
  throw Object.assign(new Error('no such record'), { code: 'ENOTFOUND' });
};

/**
 * Counts the `mail` messages a platform sends and those its consumer has been given (its observer); `allWorked`
 * waits until every message sent has been worked, for tests that send one mail at a time.
 */
export function mailQueueWatch() {
  const counts = { sent: 0, worked: 0 };
  const observer: PlatformObserver = {
    sent: (queue) => void (queue === 'mail' && counts.sent++),
    invoked: (invocation) => void (invocation.trigger === 'queue' && invocation.queue === 'mail' && (counts.worked += invocation.messageBytes.length)),
  };
  return { counts, observer, allWorked: () => waitFor(async () => (counts.worked >= counts.sent ? true : undefined)) };
}
