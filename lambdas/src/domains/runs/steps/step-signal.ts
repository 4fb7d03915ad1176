import { inProcessSignals } from '../../../infra/signals';

/** In-process news that a run stored new steps (infra/signals.ts): a stream in the runner's own process reads them at once. */
const signals = inProcessSignals();

export const announceSteps = signals.announce;
export const onSteps = signals.on;
