import type { DELIVERED_EVENT_TYPES, SKILL_EVENT_TYPES, WEBHOOK_TEST_EVENT } from '@service/shared';
import type { WebhookEventData, WebhookEventType } from '@service/webhooks';

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
}

export type PlatformEvent = keyof PlatformEventData;

/** `true` when A and B are the same set of names, else `never` (so assigning `true` fails to compile). */
type SameNames<A extends string, B extends string> = [A] extends [B] ? ([B] extends [A] ? true : never) : never;

/**
 * The event names the REST contract accepts and reports (`DELIVERED_EVENT_TYPES`: the subscribable `EVENT_TYPES` and
 * `webhook.test`, in delivery logs and the OpenAPI enum; `SKILL_EVENT_TYPES`: skills' event logs) are tied to the
 * payload types: the webhook events to those `@service/webhooks` exports to receivers, the skills' to
 * PlatformEventData above. Adding, renaming or removing an
 * event on one side without the other fails the type check here. (shared/ stays free of server imports: the widget
 * reads it.)
 */
export const EVENT_NAMES_MATCH_PAYLOADS: {
  webhooks: SameNames<(typeof DELIVERED_EVENT_TYPES)[number], WebhookEventType>;
  skills: SameNames<(typeof SKILL_EVENT_TYPES)[number], Exclude<PlatformEvent, typeof WEBHOOK_TEST_EVENT>>;
} = { webhooks: true, skills: true };
