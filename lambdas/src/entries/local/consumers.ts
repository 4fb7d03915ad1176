import type { LanguageModel } from 'ai';
import type { Deps } from '../../infra/deps';
import type { LocalQueue } from '../../infra/queue/local';
import { createRunConsumer } from '../../domains/runs/runtime/run-consumer';
import { createWebhookConsumer } from '../../domains/webhooks/deliverer';
import { createKnowledgeConsumer } from '../../domains/knowledge/consumer';
import { evalRunner } from '../../surfaces/evals/runner';
import { observeConsumer, type PlatformObserver } from './observer';
import { createMailConsumer } from '../../surfaces/mail/consumer';

/** Connects each queue to the same consumer handler its SQS event source mapping invokes in AWS. */
export function attachConsumers(queue: LocalQueue, deps: Deps, runtime: { model: LanguageModel }, observer?: PlatformObserver): void {
  queue.consume('runs', observeConsumer('runs', createRunConsumer(deps, { model: runtime.model }), observer));
  queue.consume('webhooks', observeConsumer('webhooks', createWebhookConsumer(deps), observer));
  queue.consume('knowledge', observeConsumer('knowledge', createKnowledgeConsumer(deps), observer));
  queue.consume('evals', observeConsumer('evals', evalRunner(deps, runtime.model), observer));
  queue.consume('mail', observeConsumer('mail', createMailConsumer(deps, runtime.model), observer));
}
