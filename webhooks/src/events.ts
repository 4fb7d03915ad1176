/** The data of `agent.command.completed`: a command run finished with a result. */
export interface CommandCompletedData {
  run_id: string;
  agent_id: string;
  agent_name: string;
  status: string;
  instruction: string;
  result_text: string;
  /** How many steps the run took, as agents/command_status lists them (status changes, model turns, tool calls). */
  steps_count: number;
}

/** The data of `agent.command.failed`: a command run ended without a result; `error` says why. */
export interface CommandFailedData {
  run_id: string;
  agent_id: string;
  agent_name: string;
  status: string;
  instruction: string;
  error: string;
  /** How many steps the run took, as agents/command_status lists them. */
  steps_count: number;
}

/** The data of `webhook.test`: sent to one endpoint on request (the dashboard's "Send test event"), never emitted. */
export interface WebhookTestData {
  webhook_id: string;
  message: string;
}

/** Event type -> its `data`. */
export interface WebhookEventData {
  'agent.command.completed': CommandCompletedData;
  'agent.command.failed': CommandFailedData;
  'webhook.test': WebhookTestData;
}

export type WebhookEventType = keyof WebhookEventData;

/** One delivery's body. A union over the event types: narrow on `event` to get the matching `data`. */
export type WebhookEvent<E extends WebhookEventType = WebhookEventType> = {
  [K in E]: { id: string; event: K; created_at: string; data: WebhookEventData[K] };
}[E];
