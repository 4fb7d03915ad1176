import type { Tracer } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { MeterProvider, MetricReader, type DataPoint } from '@opentelemetry/sdk-metrics';
import { BatchSpanProcessor, TracerProvider, type ReadableSpan, type SpanExporter } from '@opentelemetry/sdk-trace';
import { createGuardedAgents, type OutboundPolicy } from '../net/outbound-guard';

/**
 * The export of one workspace's spans to the OTLP/HTTP endpoint it configured. Spans wait in a bounded queue and go
 * in batches, in the background: a run never waits for the collector, and when it is down or slow the queue fills
 * and further spans are dropped (counted), never held. This module is loaded only where a workspace has an endpoint
 * (tracing.ts imports it on demand), so the OpenTelemetry SDK is off every cold start.
 */
export interface ExportTarget {
  workspaceId: string;
  endpoint: string;
  headers: Record<string, string>;
  policy: OutboundPolicy;
}

/** Spans delivered and dropped since the last report, and the last export error. */
export interface ExportReport {
  exported: number;
  dropped: number;
  lastError?: string;
}

export type ReportExport = (workspaceId: string, report: ExportReport) => Promise<void>;

const QUEUE = { maxQueueSize: 2048, maxExportBatchSize: 256, scheduledDelayMillis: 1000, exportTimeoutMillis: 10_000 } as const;
const SPANS_PROCESSED = 'otel.sdk.processor.span.processed';

/** A reader the export pulls from: the span processor's own counters of spans exported and dropped (`error.type`). */
class PullReader extends MetricReader {
  protected async onForceFlush(): Promise<void> {}
  protected async onShutdown(): Promise<void> {}
}

class WorkspaceExport {
  readonly provider: TracerProvider;
  private readonly reader = new PullReader();
  private reported = { exported: 0, dropped: 0 };
  private lastError: string | undefined;
  private reporting: Promise<void> = Promise.resolve();

  constructor(
    readonly target: ExportTarget,
    private readonly report: ReportExport,
  ) {
    const agents = createGuardedAgents(target.policy);
    const exporter = new OTLPTraceExporter({
      url: target.endpoint,
      headers: target.headers,
      timeoutMillis: QUEUE.exportTimeoutMillis,
      // Every connection goes through the outbound guard (no private address, no DNS rebinding), as webhooks do.
      httpAgentOptions: (protocol) => (protocol === 'https:' ? agents.https : agents.http),
    });
    const meters = new MeterProvider({ readers: [this.reader] });
    this.provider = new TracerProvider({
      resource: resourceFromAttributes({ 'service.name': 'agent-platform', 'platform.workspace.id': target.workspaceId }),
      spanProcessors: [new BatchSpanProcessor({ exporter: this.afterEachExport(exporter), ...QUEUE, selfObsMeterProvider: meters })],
    });
  }

  /** The exporter, followed after each batch by a report of what changed (the processor counts, the store adds up). */
  private afterEachExport(exporter: SpanExporter): SpanExporter {
    return {
      export: (spans: ReadableSpan[], done) =>
        exporter.export(spans, (result) => {
          if (result.error) this.lastError = result.error.message.slice(0, 500);
          done(result);
          this.queueReport();
        }),
      shutdown: () => exporter.shutdown(),
      forceFlush: () => exporter.forceFlush?.() ?? Promise.resolve(),
    };
  }

  private queueReport(): void {
    this.reporting = this.reporting.then(() => this.sendReport()).catch(() => undefined);
  }

  private async sendReport(): Promise<void> {
    const totals = await this.totals();
    const report: ExportReport = {
      exported: totals.exported - this.reported.exported,
      dropped: totals.dropped - this.reported.dropped,
      lastError: this.lastError,
    };
    if (report.exported === 0 && report.dropped === 0 && !report.lastError) return;
    this.reported = totals;
    this.lastError = undefined;
    await this.report(this.target.workspaceId, report);
  }

  private async totals(): Promise<{ exported: number; dropped: number }> {
    const { resourceMetrics } = await this.reader.collect();
    const points = resourceMetrics.scopeMetrics.flatMap((scope) =>
      scope.metrics.filter((metric) => metric.descriptor.name === SPANS_PROCESSED).flatMap((metric) => metric.dataPoints as DataPoint<number>[]),
    );
    const sum = (failed: boolean) =>
      points.filter((point) => (point.attributes['error.type'] !== undefined) === failed).reduce((total, point) => total + point.value, 0);
    return { exported: sum(false), dropped: sum(true) };
  }

  /** Sends what waits, at most `timeoutMs`, then reports (spans dropped by a full queue are counted there too). */
  async flush(timeoutMs: number): Promise<void> {
    await this.provider.forceFlush({ timeoutMillis: timeoutMs }).catch(() => undefined);
    this.queueReport();
    await this.reporting;
  }
}

const exportsByWorkspace = new Map<string, WorkspaceExport>();
const sameTarget = (a: ExportTarget, b: ExportTarget) =>
  a.endpoint === b.endpoint && JSON.stringify(a.headers) === JSON.stringify(b.headers) && a.policy.allowLocal === b.policy.allowLocal;

/** The tracer of a workspace's export; a changed endpoint or headers replace it (what waited for the old one is sent first). */
export function exportTracer(target: ExportTarget, report: ReportExport): Tracer {
  const current = exportsByWorkspace.get(target.workspaceId);
  if (current && sameTarget(current.target, target)) return current.provider.getTracer('agent-platform');
  const next = new WorkspaceExport(target, report);
  exportsByWorkspace.set(target.workspaceId, next);
  if (current) void current.flush(QUEUE.exportTimeoutMillis).then(() => current.provider.shutdown());
  return next.provider.getTracer('agent-platform');
}

/**
 * Sends every workspace's waiting spans, bounded by `timeoutMs`: a Lambda calls it before it returns (a frozen
 * container sends nothing), the local platform when it stops. Past the bound, what is left waits for the next flush.
 */
export async function flushExports(timeoutMs: number): Promise<void> {
  await Promise.all([...exportsByWorkspace.values()].map((workspaceExport) => workspaceExport.flush(timeoutMs)));
}
