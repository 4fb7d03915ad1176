/** Attempts at an eval run before it fails; each goes on from the results the earlier ones stored. */
export const MAX_EVAL_ATTEMPTS = 3;

/**
 * An attempt notes it is alive after each scenario (a widget reply, a run and its judge take a few minutes at most):
 * one quiet for longer died, and another may take the run (the consumer's take, the sweeper's message).
 */
export const EVAL_QUIET_MS = 5 * 60_000;
