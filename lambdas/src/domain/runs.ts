import { GetCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { ApiError, newRunId, type schemas } from '@service/shared';
import type { z } from 'zod';
import type { Deps } from '../deps';

type RunStatus = (typeof schemas.RUN_STATUSES)[number];
type Autonomy = (typeof schemas.AUTONOMY_LEVELS)[number];

export interface StoredRun {
  runId: string;
  workspaceId: string;
  agentId: string;
  status: RunStatus;
  autonomy: Autonomy;
  instruction: string;
  data?: Record<string, unknown>;
  schema?: Record<string, unknown>;
  resultText?: string;
  output?: Record<string, unknown> | null;
  outputError?: string | null;
  error?: string;
  usage: { inputTokens: number; outputTokens: number };
  createdAt: string;
  completedAt?: string;
}

export const DEFAULT_AUTONOMY: Autonomy = 'read_only';

export function toRunResponse(run: StoredRun): z.input<typeof schemas.Run> {
  return {
    run_id: run.runId,
    agent_id: run.agentId,
    status: run.status,
    autonomy: run.autonomy,
    instruction: run.instruction,
    result_text: run.resultText ?? null,
    output: run.output ?? null,
    output_error: run.outputError ?? null,
    error: run.error ?? null,
    usage: { input_tokens: run.usage.inputTokens, output_tokens: run.usage.outputTokens },
    created_at: run.createdAt,
    completed_at: run.completedAt ?? null,
  };
}

export async function createQueuedRun(
  deps: Deps,
  input: { workspaceId: string; agentId: string; instruction: string; autonomy?: Autonomy; data?: Record<string, unknown>; schema?: Record<string, unknown> },
): Promise<StoredRun> {
  const run: StoredRun = {
    runId: newRunId(),
    workspaceId: input.workspaceId,
    agentId: input.agentId,
    status: 'queued',
    autonomy: input.autonomy ?? DEFAULT_AUTONOMY,
    instruction: input.instruction,
    ...(input.data ? { data: input.data } : {}),
    ...(input.schema ? { schema: input.schema } : {}),
    usage: { inputTokens: 0, outputTokens: 0 },
    createdAt: deps.now().toISOString(),
  };
  await deps.store.doc.send(new PutCommand({ TableName: deps.store.table('runs'), Item: run, ConditionExpression: 'attribute_not_exists(runId)' }));
  return run;
}

export async function getRun(deps: Deps, workspaceId: string, runId: string): Promise<StoredRun> {
  const result = await deps.store.doc.send(new GetCommand({ TableName: deps.store.table('runs'), Key: { runId }, ConsistentRead: true }));
  const run = result.Item as StoredRun | undefined;
  if (!run || run.workspaceId !== workspaceId) throw new ApiError('RUN_NOT_FOUND', `No run ${runId} in this workspace`, { field: 'run_id' });
  return run;
}

export async function listRuns(deps: Deps, workspaceId: string, agentId: string, limit: number): Promise<StoredRun[]> {
  const result = await deps.store.doc.send(
    new QueryCommand({
      TableName: deps.store.table('runs'),
      IndexName: 'byAgent',
      KeyConditionExpression: 'agentId = :a',
      ExpressionAttributeValues: { ':a': agentId },
      ScanIndexForward: false,
      Limit: limit,
    }),
  );
  return ((result.Items ?? []) as StoredRun[]).filter((run) => run.workspaceId === workspaceId);
}
