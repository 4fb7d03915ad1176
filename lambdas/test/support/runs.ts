import { setTimeout as sleep } from 'node:timers/promises';
import type { ApiCall } from './platform';

export interface RunView {
  run_id: string;
  status: string;
  result_text: string | null;
  output: Record<string, unknown> | null;
  output_error: string | null;
  error: string | null;
  usage: { input_tokens: number; output_tokens: number };
}

/** Polls agents/command_status as an API user would, until the run leaves queued/running. */
export async function waitForRun(api: ApiCall, runId: string, timeoutMs = 15_000): Promise<RunView> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const response = await api<RunView>('agents/command_status/', { query: { run_id: runId } });
    if (response.status !== 200) throw new Error(`command_status answered ${response.status}: ${JSON.stringify(response.body)}`);
    if (!['queued', 'running'].includes(response.body.data.status)) return response.body.data;
    if (Date.now() > deadline) throw new Error(`run ${runId} still ${response.body.data.status} after ${timeoutMs} ms`);
    await sleep(25);
  }
}

export async function command(api: ApiCall, body: Record<string, unknown>): Promise<string> {
  const response = await api<{ run: { run_id: string } }>('agents/command/', { body });
  if (response.status !== 202) throw new Error(`command answered ${response.status}: ${JSON.stringify(response.body)}`);
  return response.body.data.run.run_id;
}

/** Reads until `done` holds of what was read (a condition, never a fixed sleep); fails past `timeoutMs`. */
export async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`condition not met in ${timeoutMs} ms: ${JSON.stringify(value)}`);
    await sleep(25);
  }
}

/** How many contacts of the workspace bear `name` (what a run that adds a contact did, seen as a user sees it). */
export async function contactsNamed(api: ApiCall, name: string): Promise<number> {
  const contacts = await api<{ contacts: { name: string }[] }>('contacts/list/', { query: { limit: '100' } });
  return contacts.body.data.contacts.filter((contact) => contact.name === name).length;
}
