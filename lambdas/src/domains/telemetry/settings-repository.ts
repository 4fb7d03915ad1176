import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Deps } from '../../infra/deps';
import { ifConditionHolds, readItem } from '../../infra/store/dynamo';

/** The telemetry domain's repository: every store call of the `telemetrySettings` table. */
export interface StoredTelemetrySettings {
  workspaceId: string;
  otlpEndpoint?: string;
  /** Sent with each export (a vendor's key): never returned, never logged. */
  headers: Record<string, string>;
  includeContent: boolean;
  updatedAt?: string;
  exported?: number;
  dropped?: number;
  lastError?: string;
  lastErrorAt?: string;
}

export const readTelemetrySettings = (deps: Deps, workspaceId: string) =>
  readItem<StoredTelemetrySettings>(deps.store, deps.store.table('telemetrySettings'), { workspaceId });

type SettingsWrite = Required<Pick<StoredTelemetrySettings, 'workspaceId' | 'headers' | 'includeContent' | 'updatedAt'>> & { otlpEndpoint: string | null };

/** The update of a settings write: no endpoint removes it; a new endpoint starts its counts afresh. */
function settingsUpdate(settings: SettingsWrite, endpointChanged: boolean): { expression: string; values: Record<string, unknown> } {
  const values = { ':headers': settings.headers, ':content': settings.includeContent, ':at': settings.updatedAt };
  const set = 'SET headers = :headers, includeContent = :content, updatedAt = :at';
  if (settings.otlpEndpoint === null) return { expression: `${set} REMOVE otlpEndpoint`, values };
  const withEndpoint = { ...values, ':endpoint': settings.otlpEndpoint };
  if (!endpointChanged) return { expression: `${set}, otlpEndpoint = :endpoint`, values: withEndpoint };
  return {
    expression: `${set}, otlpEndpoint = :endpoint, exported = :zero, dropped = :zero REMOVE lastError, lastErrorAt`,
    values: { ...withEndpoint, ':zero': 0 },
  };
}

export async function writeTelemetrySettings(deps: Deps, settings: SettingsWrite, endpointChanged: boolean): Promise<StoredTelemetrySettings> {
  const { expression, values } = settingsUpdate(settings, endpointChanged);
  const result = await deps.store.doc.send(
    new UpdateCommand({
      TableName: deps.store.table('telemetrySettings'),
      Key: { workspaceId: settings.workspaceId },
      UpdateExpression: expression,
      ExpressionAttributeValues: values,
      ReturnValues: 'ALL_NEW',
    }),
  );
  return result.Attributes as StoredTelemetrySettings;
}

/** Adds what one export delivered and dropped (atomic ADD: processes report side by side). */
export async function addExportCounts(
  deps: Deps,
  workspaceId: string,
  report: { exported: number; dropped: number; lastError?: string; at: string },
): Promise<void> {
  await ifConditionHolds(
    deps.store.doc.send(
      new UpdateCommand({
        TableName: deps.store.table('telemetrySettings'),
        Key: { workspaceId },
        // Only while an endpoint is set: a report that lands after tracing was turned off writes nothing.
        ConditionExpression: 'attribute_exists(otlpEndpoint)',
        UpdateExpression: `ADD exported :exported, dropped :dropped${report.lastError ? ' SET lastError = :error, lastErrorAt = :at' : ''}`,
        ExpressionAttributeValues: {
          ':exported': report.exported,
          ':dropped': report.dropped,
          ...(report.lastError ? { ':error': report.lastError, ':at': report.at } : {}),
        },
      }),
    ),
  );
}
