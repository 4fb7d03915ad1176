import { newRunId } from '@service/shared';
import { expect } from 'vitest';
import type { RunningPlatform } from '../../src/entries/local/platform';
import type { CommandCompletedData } from '@service/webhooks';
import { emitEvent } from '../../src/domains/webhooks/emit';
import type { ApiCall } from '../support/platform';

export type Subscription = { id: string; secret: string };

/** Creates a subscription through the REST API, as a customer would. */
export async function subscribe(api: ApiCall, url: string, events = ['agent.command.completed', 'agent.command.failed']): Promise<Subscription> {
  const response = await api<{ subscription: { id: string }; signing_secret: string }>('webhooks/create', { body: { url, events } });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return { id: response.body.data.subscription.id, secret: response.body.data.signing_secret };
}

export const completedData = (instruction = 'Summarise the inbox'): CommandCompletedData => ({
  run_id: newRunId(),
  agent_id: '5eed0000-0000-4000-8000-0000000000a1',
  agent_name: 'Support',
  status: 'completed',
  instruction,
  result_text: 'Done: 3 new messages, none urgent.',
  steps_count: 5,
});

/** Until the runner emits events itself, tests trigger them the way it will. */
export const emitCompleted = (platform: RunningPlatform, data = completedData()) =>
  emitEvent(platform.deps, platform.demo.workspaceId, 'agent.command.completed', data);

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export const signatureTimestamp = (header: string | string[] | undefined): number => Number(/t=(\d+)/.exec(String(header))?.[1]);

export interface Attempt {
  event_id: string;
  event: string;
  attempt: number;
  redelivery: boolean;
  attempted_at: string;
  http_status: number | null;
  duration_ms: number;
  success: boolean;
  error: string | null;
  body: string | null;
}

export async function deliveryLog(api: ApiCall, webhookId: string, limit = 100): Promise<Attempt[]> {
  const response = await api<{ attempts: Attempt[] }>('webhooks/deliveries', { query: { webhook_id: webhookId, limit: String(limit) } });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body.data.attempts;
}

export async function subscriptionState(api: ApiCall, webhookId: string) {
  const response = await api<{ subscriptions: Array<{ id: string; active: boolean; failure_count: number; disabled_at: string | null }> }>('webhooks/list');
  return response.body.data.subscriptions.find((subscription) => subscription.id === webhookId);
}
