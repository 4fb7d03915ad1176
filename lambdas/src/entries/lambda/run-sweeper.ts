import { depsFromEnv } from './deps-from-env';
import { sweepRuns } from '../../domains/runs/runtime/run-sweeper';

/** Lambda entry of the run sweeper, invoked every minute by an EventBridge schedule. */
const deps = await depsFromEnv();
export const handler = async () => {
  const report = await sweepRuns(deps);
  if (report.enqueued.length + report.failed.length > 0) console.warn('run sweeper finished stranded runs', report);
  return report;
};
