import type { WebhookEventData } from '@service/webhooks';

/** Who was installed or uninstalled where. */
export interface SkillInstallData {
  agent_id: string;
  skill_code: string;
}

/** The workspace's events: the webhook events (also sent to skills) and those only skills receive. */
export interface PlatformEventData extends WebhookEventData {
  'contact.created': Record<string, unknown>;
  'calendar.event_created': Record<string, unknown>;
  'task.created': Record<string, unknown>;
  'skill.installed': SkillInstallData;
  'skill.uninstalled': SkillInstallData;
  /** Sent to one subscription on request (webhooks/test), never emitted to subscribers. */
  'webhook.test': { webhook_id: string; message: string };
}

export type PlatformEvent = keyof PlatformEventData;
