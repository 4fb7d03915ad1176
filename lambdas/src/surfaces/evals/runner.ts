import type { LanguageModel } from 'ai';
import type { Deps } from '../../infra/deps';
import type { QueueConsumer } from '../../infra/queue/queue';
import { commandDoor } from '../../domains/evals/command-door';
import { createEvalConsumer } from '../../domains/evals/consumer';
import { modelCanGrade } from '../../domains/evals/judge';
import { emailDoor } from '../mail/eval-door';
import { widgetDoor } from '../widget/eval-door';

/**
 * The eval runner (the `evals` queue's consumer, the EvalRunner function in AWS): a scenario reaches the agent through
 * the door it imitates, the widget's reply, the run executor or the e-mail answer, with the configured model, which also grades `judge`
 * expectations unless it is the offline model.
 */
export const evalRunner = (deps: Deps, model: LanguageModel): QueueConsumer =>
  createEvalConsumer(deps, {
    doors: { widget: widgetDoor(model), command: commandDoor(model), email: emailDoor(model) },
    grader: modelCanGrade(deps.config.model) ? model : undefined,
  });
