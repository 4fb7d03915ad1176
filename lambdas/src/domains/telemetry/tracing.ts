import type { TelemetryOptions } from 'ai';
import type { Deps } from '../../infra/deps';
import { logger } from '../../infra/logger';
import type * as OtlpExport from '../../infra/telemetry/otlp-export';
import { addExportCounts } from './settings-repository';
import { exportSettingsOf } from './settings';

/** The exporter, once a traced workspace needed it in this process (a dynamic import: a chunk of its own in a Lambda). */
let otlpExport: Promise<typeof OtlpExport> | undefined;

/** What a span says it belongs to: the agent, and the run or the widget conversation. */
export interface TraceSubject {
  workspaceId: string;
  agent: { id: string; name: string };
  runId?: string;
  conversationId?: string;
}

/**
 * The AI SDK telemetry of one run or widget reply: its GenAI spans (`invoke_agent <agent>`, `chat <model>`,
 * `execute_tool <tool>`, with token usage) go to the workspace's OTLP endpoint, with the agent and the run or
 * conversation as attributes. Undefined when the workspace has no endpoint (the default): then nothing is recorded
 * and the OpenTelemetry SDK is never loaded. Message contents, tool arguments and results are on the spans only when
 * the workspace turned `include_content` on.
 */
export async function traceTelemetry(deps: Deps, subject: TraceSubject): Promise<TelemetryOptions | undefined> {
  const settings = await exportSettingsOf(deps, subject.workspaceId).catch((error: unknown) => {
    // Tracing never stops a run: without its settings the run goes untraced.
    logger.warn('telemetry settings unreadable; not tracing', { workspaceId: subject.workspaceId, error });
    return undefined;
  });
  if (!settings) return undefined;
  otlpExport ??= import('../../infra/telemetry/otlp-export');
  const [{ OpenTelemetry }, { exportTracer }] = await Promise.all([import('@ai-sdk/otel'), otlpExport]);
  const tracer = exportTracer(
    { workspaceId: subject.workspaceId, endpoint: settings.otlpEndpoint, headers: settings.headers, policy: { allowLocal: deps.config.webhookAllowLocal } },
    (workspaceId, report) => addExportCounts(deps, workspaceId, { ...report, at: deps.now().toISOString() }),
  );
  const attributes = {
    'gen_ai.agent.id': subject.agent.id,
    'gen_ai.agent.name': subject.agent.name,
    ...(subject.conversationId ? { 'gen_ai.conversation.id': subject.conversationId } : {}),
    ...(subject.runId ? { 'platform.run.id': subject.runId } : {}),
    'platform.workspace.id': subject.workspaceId,
  };
  return {
    integrations: new OpenTelemetry({ tracer, agentSpanName: 'functionId', enrichSpan: () => attributes }),
    functionId: subject.agent.name,
    recordInputs: settings.includeContent,
    recordOutputs: settings.includeContent,
  };
}

/** Sends the spans waiting in this process, at most `timeoutMs` (a Lambda before it returns); nothing traced, nothing to do. */
export async function flushTraces(timeoutMs: number): Promise<void> {
  if (!otlpExport) return;
  const { flushExports } = await otlpExport;
  await flushExports(timeoutMs);
}
