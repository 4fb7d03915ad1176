import { DomainError, type BodyOf, type DataOf } from '@service/shared';
import { LRUCache } from 'lru-cache';
import type { Deps } from '../../infra/deps';
import { checkOutboundUrl, OutboundBlockedError } from '../../infra/net/outbound-guard';

import { readTelemetrySettings, writeTelemetrySettings, type StoredTelemetrySettings } from './settings-repository';

/**
 * The telemetry domain: where a workspace's traces go (its settings, cached per process) and the AI SDK telemetry of a run
 * or a widget reply (tracing.ts).
 */
type TelemetrySettings = DataOf<'telemetrySettingsGet'>['settings'];

export function toTelemetrySettingsResponse(stored: StoredTelemetrySettings | undefined): TelemetrySettings {
  return {
    otlp_endpoint: stored?.otlpEndpoint ?? null,
    header_names: Object.keys(stored?.headers ?? {}),
    include_content: stored?.includeContent ?? false,
    updated_at: stored?.updatedAt ?? null,
    spans: {
      exported: stored?.exported ?? 0,
      dropped: stored?.dropped ?? 0,
      last_error: stored?.lastError ?? null,
      last_error_at: stored?.lastErrorAt ?? null,
    },
  };
}

export const telemetrySettings = async (deps: Deps, workspaceId: string) => toTelemetrySettingsResponse(await readTelemetrySettings(deps, workspaceId));

/** Sets where the workspace's spans go; the endpoint passes the outbound guard as a webhook URL does. */
export async function updateTelemetrySettings(deps: Deps, workspaceId: string, body: BodyOf<'telemetrySettingsUpdate'>): Promise<TelemetrySettings> {
  if (body.otlp_endpoint !== null) {
    try {
      checkOutboundUrl(body.otlp_endpoint, { allowLocal: deps.config.webhookAllowLocal });
    } catch (error) {
      if (error instanceof OutboundBlockedError)
        throw new DomainError('VALIDATION_ERROR', error.message.replace(/^url/, 'otlp_endpoint'), { field: 'otlp_endpoint' });
      throw error;
    }
  }
  const current = await readTelemetrySettings(deps, workspaceId);
  const stored = await writeTelemetrySettings(
    deps,
    {
      workspaceId,
      otlpEndpoint: body.otlp_endpoint,
      headers: body.headers ?? current?.headers ?? {},
      includeContent: body.include_content ?? current?.includeContent ?? false,
      updatedAt: deps.now().toISOString(),
    },
    body.otlp_endpoint !== null && body.otlp_endpoint !== current?.otlpEndpoint,
  );
  exportSettingsCache.delete(workspaceId);
  return toTelemetrySettingsResponse(stored);
}

/**
 * Each run and widget reply asks where its spans go: read once a minute per workspace and process, so a change
 * reaches every warm process within that minute (this one at once).
 */
const exportSettingsCache = new LRUCache<string, Promise<ExportSettings | undefined>>({ max: 5_000, ttl: 60_000 });

export type ExportSettings = StoredTelemetrySettings & { otlpEndpoint: string };

export function exportSettingsOf(deps: Deps, workspaceId: string): Promise<ExportSettings | undefined> {
  let settings = exportSettingsCache.get(workspaceId);
  if (!settings) {
    settings = readTelemetrySettings(deps, workspaceId).then((stored) => (stored?.otlpEndpoint ? (stored as ExportSettings) : undefined));
    settings.catch(() => exportSettingsCache.delete(workspaceId));
    exportSettingsCache.set(workspaceId, settings);
  }
  return settings;
}
