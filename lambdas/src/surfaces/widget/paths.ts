const AGENT_PATH = /^\/v1\/agents\/([^/]+)\/(widget-config|chat)\/?$/;

/** Matches the widget's public routes: /v1/agents/{agentId}/widget-config and /v1/agents/{agentId}/chat. */
export const isWidgetConfigPath = (path: string): boolean => AGENT_PATH.exec(path)?.[2] === 'widget-config';
export const isWidgetChatPath = (path: string): boolean => AGENT_PATH.exec(path)?.[2] === 'chat';

export function agentIdFromPath(path: string): string | undefined {
  const raw = AGENT_PATH.exec(path)?.[1];
  if (raw === undefined) return undefined;
  try {
    return decodeURIComponent(raw);
  } catch {
    return undefined;
  }
}
