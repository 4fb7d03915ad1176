import { depsFromEnv } from './deps-from-env';
import { sweepRuns } from '../../domains/runs/runtime/run-sweeper';
import { logger } from '../../infra/logger';
import { sweepEvalRuns } from '../../domains/evals/eval-sweeper';
import { sweepMails } from '../../domains/mail/mail-sweeper';

/** Lambda entry of the run sweeper (runs, eval runs and inbound mails a crash left behind), invoked every minute by an EventBridge schedule. */
const deps = await depsFromEnv();
export const handler = async () => {
  const [report, evalRuns, mails] = await Promise.all([sweepRuns(deps), sweepEvalRuns(deps), sweepMails(deps)]);
  if (report.enqueued.length + report.failed.length + report.expired.length + evalRuns.length + mails.length > 0)
    logger.warn('run sweeper finished stranded runs', { ...report, evalRuns, mails });
  return { ...report, evalRuns, mails };
};
