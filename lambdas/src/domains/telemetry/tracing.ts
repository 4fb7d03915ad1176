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

type ExportSettings = NonNullable<Awaited<ReturnType<typeof exportSettingsOf>>>;

/** The tracer of the workspace's export (one per workspace and process; see otlp-export.ts). */
async function workspaceTracer(deps: Deps, workspaceId: string, settings: ExportSettings) {
  otlpExport ??= import('../../infra/telemetry/otlp-export');
  const { exportTracer } = await otlpExport;
  return exportTracer(
    { workspaceId, endpoint: settings.otlpEndpoint, headers: settings.headers, policy: { allowLocal: deps.config.webhookAllowLocal } },
    (id, report) => addExportCounts(deps, id, { ...report, at: deps.now().toISOString() }),
  );
}

const subjectAttributes = (subject: TraceSubject) => ({
  'gen_ai.agent.id': subject.agent.id,
  'gen_ai.agent.name': subject.agent.name,
  ...(subject.conversationId ? { 'gen_ai.conversation.id': subject.conversationId } : {}),
  ...(subject.runId ? { 'platform.run.id': subject.runId } : {}),
  'platform.workspace.id': subject.workspaceId,
});

/** The workspace's export settings; none when it has no endpoint, or when they cannot be read (tracing never stops a run). */
const settingsOf = (deps: Deps, workspaceId: string) =>
  exportSettingsOf(deps, workspaceId).catch((error: unknown) => {
    logger.warn('telemetry settings unreadable; not tracing', { workspaceId, error });
    return undefined;
  });

/**
 * The AI SDK telemetry of one run or widget reply: its GenAI spans (`invoke_agent <agent>`, `chat <model>`,
 * `execute_tool <tool>`, with token usage) go to the workspace's OTLP endpoint, with the agent and the run or
 * conversation as attributes. Undefined when the workspace has no endpoint (the default): then nothing is recorded
 * and the OpenTelemetry SDK is never loaded. Message contents, tool arguments and results are on the spans only when
 * the workspace turned `include_content` on.
 */
export async function traceTelemetry(deps: Deps, subject: TraceSubject): Promise<TelemetryOptions | undefined> {
  const settings = await settingsOf(deps, subject.workspaceId);
  if (!settings) return undefined;
  const [{ OpenTelemetry }, tracer] = await Promise.all([import('@ai-sdk/otel'), workspaceTracer(deps, subject.workspaceId, settings)]);
  const attributes = subjectAttributes(subject);
  return {
    integrations: new OpenTelemetry({ tracer, agentSpanName: 'functionId', enrichSpan: () => attributes }),
    functionId: subject.agent.name,
    recordInputs: settings.includeContent,
    recordOutputs: settings.includeContent,
  };
}

/**
 * A span `filter_links` saying which links an answer lost before anyone saw it (cited-answer.ts), beside the answer's
 * GenAI spans, with the same attributes; nothing when none was removed or the workspace traces nothing.
 */
export async function traceRemovedLinks(deps: Deps, subject: TraceSubject, removed: readonly { url: string }[]): Promise<void> {
  if (removed.length === 0) return;
  const settings = await settingsOf(deps, subject.workspaceId);
  if (!settings) return;
  const tracer = await workspaceTracer(deps, subject.workspaceId, settings);
  tracer.startSpan('filter_links', { attributes: { ...subjectAttributes(subject), 'platform.links.removed': removed.map((link) => link.url) } }).end();
}

/** Sends the spans waiting in this process, at most `timeoutMs` (a Lambda before it returns); nothing traced, nothing to do. */
export async function flushTraces(timeoutMs: number): Promise<void> {
  if (!otlpExport) return;
  const { flushExports } = await otlpExport;
  await flushExports(timeoutMs);
}
