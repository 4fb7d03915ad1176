import { telemetrySettings, updateTelemetrySettings } from '../../../domains/telemetry/settings';
import type { EndpointHandlers } from './types';

export const telemetryEndpoints: EndpointHandlers<'telemetrySettingsGet' | 'telemetrySettingsUpdate'> = {
  telemetrySettingsGet: async ({ deps, workspace }) => ({ data: { settings: await telemetrySettings(deps, workspace.id) } }),
  telemetrySettingsUpdate: async ({ deps, workspace, body }) => ({
    data: { settings: await updateTelemetrySettings(deps, workspace.id, body) },
    msg: body.otlp_endpoint === null ? 'Tracing is off' : 'Spans of every run and widget reply now go to this endpoint',
  }),
};
