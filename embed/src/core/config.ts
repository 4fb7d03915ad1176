import { CHAT_LIMITS } from '@service/shared/widget-protocol';
import { session } from './storage';

/** The fields of the widget-config response the widget shows or obeys (it ignores the rest). */
export interface WidgetConfig {
  /** `avatarExpressions`: the avatar's own views (`avatar.svg#thinking`) the widget may show; empty = one picture. */
  agent: { name: string; role: string; avatarUrl: string; avatarExpressions: string[] };
  branding: { primaryColor: string; gradientFrom: string; gradientTo: string };
  widget: { showDelay: number; teaserDelay: number; idleNudgeDelay: number; teaserHighlightWord: string; locale: string };
  /**
   * Where the panel streams the conversation from (defaults to `{apiUrl}/v1/agents/{agentId}/chat`), and how long a
   * reply may stay silent before the panel gives it up.
   */
  chat: { url: string; idleTimeoutMs: number };
}

/** The `config` prop / data-* overrides: they win over the API's values. */
export interface ConfigOverrides {
  showDelay?: number;
  teaserDelay?: number;
  idleNudgeDelay?: number;
  detectLocale?: () => string;
}

export const DEFAULT_CONFIG: WidgetConfig = {
  agent: { name: '', role: '', avatarUrl: '', avatarExpressions: [] },
  branding: { primaryColor: '#2563eb', gradientFrom: '#3b82f6', gradientTo: '#4f46e5' },
  widget: { showDelay: 2000, teaserDelay: 5000, idleNudgeDelay: 30000, teaserHighlightWord: '', locale: 'en' },
  chat: { url: '', idleTimeoutMs: CHAT_LIMITS.idleTimeoutMs },
};

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const isUuid = (value: unknown): value is string => typeof value === 'string' && UUID.test(value);

const HEX = /^#(?:[0-9a-f]{3}|[0-9a-f]{6})$/i;
const str = (value: unknown, fallback: string, max = 200) => (typeof value === 'string' ? value.slice(0, max) : fallback);
const hex = (value: unknown, fallback: string) => (typeof value === 'string' && HEX.test(value) ? value : fallback);
const ms = (value: unknown, fallback: number) => (typeof value === 'number' && Number.isFinite(value) && value >= 0 && value <= 86_400_000 ? value : fallback);
const url = (value: unknown, fallback: string) => (typeof value === 'string' && /^(https?:\/\/|\/(?!\/))/.test(value) ? value : fallback);
// An expression names a fragment of the avatar's URL: a short identifier, a few of them.
const names = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((name): name is string => typeof name === 'string' && /^[a-z][a-z0-9_-]{0,31}$/i.test(name)).slice(0, 8) : [];
const record = (value: unknown): Record<string, unknown> => (typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {});

/** Read an untrusted config response field by field; anything missing or malformed falls back to the default. */
export function normalizeConfig(input: unknown): WidgetConfig {
  const root = record(input);
  const agent = record(root.agent);
  const branding = record(root.branding);
  const widget = record(root.widget);
  const d = DEFAULT_CONFIG;
  return {
    agent: {
      name: str(agent.name, d.agent.name, 80),
      role: str(agent.role, d.agent.role, 120),
      avatarUrl: url(agent.avatarUrl, d.agent.avatarUrl),
      avatarExpressions: names(agent.avatarExpressions),
    },
    branding: {
      primaryColor: hex(branding.primaryColor, d.branding.primaryColor),
      gradientFrom: hex(branding.gradientFrom, d.branding.gradientFrom),
      gradientTo: hex(branding.gradientTo, d.branding.gradientTo),
    },
    widget: {
      showDelay: ms(widget.showDelay, d.widget.showDelay),
      teaserDelay: ms(widget.teaserDelay, d.widget.teaserDelay),
      idleNudgeDelay: ms(widget.idleNudgeDelay, d.widget.idleNudgeDelay),
      teaserHighlightWord: str(widget.teaserHighlightWord, d.widget.teaserHighlightWord, 40),
      locale: str(widget.locale, d.widget.locale, 10),
    },
    chat: { url: url(record(root.chat).url, d.chat.url), idleTimeoutMs: Math.max(1000, ms(record(root.chat).idleTimeoutMs, d.chat.idleTimeoutMs)) },
  };
}

export function applyOverrides(config: WidgetConfig, overrides: ConfigOverrides): WidgetConfig {
  return {
    ...config,
    widget: {
      ...config.widget,
      showDelay: ms(overrides.showDelay, config.widget.showDelay),
      teaserDelay: ms(overrides.teaserDelay, config.widget.teaserDelay),
      idleNudgeDelay: ms(overrides.idleNudgeDelay, config.widget.idleNudgeDelay),
    },
  };
}

export type ConfigSource = 'api' | 'cache' | 'defaults';

export interface LoadConfigOptions {
  apiUrl: string;
  agentId: string;
  /** Waits between attempts: one retry per entry (the spec: 3 retries, exponential backoff). */
  retryDelays?: readonly number[];
  /** The longest the whole load may take, retries included: a request that never answers ends in defaults. */
  deadlineMs?: number;
  fetch?: typeof fetch;
}

const sleep = (duration: number) => new Promise((resolve) => setTimeout(resolve, duration));

class PermanentError extends Error {}

/** GET widget-config once per session: cached in sessionStorage, retried on network failure, defaults as last resort. */
export async function loadWidgetConfig(options: LoadConfigOptions): Promise<{ config: WidgetConfig; source: ConfigSource }> {
  const { apiUrl, agentId, retryDelays = [400, 800, 1600], deadlineMs = 6000, fetch: fetchImpl = fetch } = options;
  if (!isUuid(agentId)) {
    console.warn(`[service-chat] agent id "${String(agentId).slice(0, 60)}" is not a UUID; using generic defaults`);
    return { config: DEFAULT_CONFIG, source: 'defaults' };
  }
  const cacheKey = `service-chat:config:${apiUrl}:${agentId}`;
  const cached = session.read<unknown>(cacheKey);
  if (cached) return { config: normalizeConfig(cached), source: 'cache' };

  const endpoint = `${apiUrl.replace(/\/$/, '')}/v1/agents/${agentId}/widget-config`;
  const deadline = AbortSignal.timeout(deadlineMs);
  for (let attempt = 0; ; attempt++) {
    try {
      const response = await fetchImpl(endpoint, { headers: { accept: 'application/json' }, credentials: 'omit', signal: deadline });
      // 4xx will not get better by asking again; 5xx and 429 may.
      if (response.status >= 400 && response.status < 500 && response.status !== 429) {
        throw new PermanentError(`widget-config answered ${response.status}`);
      }
      if (!response.ok) throw new Error(`widget-config answered ${response.status}`);
      const body: unknown = await response.json();
      session.write(cacheKey, body);
      return { config: normalizeConfig(body), source: 'api' };
    } catch (error) {
      const delay = retryDelays[attempt];
      if (error instanceof PermanentError || delay === undefined || deadline.aborted) {
        console.warn('[service-chat] could not load the widget configuration; using generic defaults:', String(error));
        return { config: DEFAULT_CONFIG, source: 'defaults' };
      }
      await sleep(delay);
    }
  }
}
