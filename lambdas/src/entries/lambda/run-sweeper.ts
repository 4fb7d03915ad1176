import { depsFromEnv } from './deps-from-env';
import { sweepRuns } from '../../domains/runs/runtime/run-sweeper';
import { logger } from '../../infra/logger';

/** Lambda entry of the run sweeper, invoked every minute by an EventBridge schedule. */
const deps = await depsFromEnv();
export const handler = async () => {
  const report = await sweepRuns(deps);
  if (report.enqueued.length + report.failed.length + report.expired.length > 0) logger.warn('run sweeper finished stranded runs', { ...report });
  return report;
};
