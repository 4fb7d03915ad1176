import { DomainError, type WEBHOOK_TEST_EVENT } from '@service/shared';
import type { Deps } from '../../infra/deps';
import { findRegisteredSkill } from '../skills/registry';
import { listAttempts, type AttemptLogEntry } from './delivery-repository';
import type { PlatformEvent } from './events';
import { skillTargetId } from './skill-targets';
import { getSubscription, type EventType } from './subscriptions';

/** The delivery log: the latest attempts to a workspace's webhook subscription or registered skill, newest first. */
export type { AttemptLogEntry };

/**
 * A subscription's log: the events it subscribed to, and the test events sent to it (webhooks/test). The log is keyed
 * by subscription alone, so the subscription is checked to be the workspace's first.
 */
export async function subscriptionAttempts(
  deps: Deps,
  workspaceId: string,
  subscriptionId: string,
  limit: number,
): Promise<AttemptLogEntry<EventType | typeof WEBHOOK_TEST_EVENT>[]> {
  if (!(await getSubscription(deps, workspaceId, subscriptionId)))
    throw new DomainError('NOT_FOUND', `No webhook subscription ${subscriptionId} in this workspace`, { field: 'webhook_id' });
  return listAttempts(deps, subscriptionId, limit);
}

/** A registered skill's log (skills never receive the test event of a webhook subscription). */
export async function skillAttempts(
  deps: Deps,
  workspaceId: string,
  skillCode: string,
  limit: number,
): Promise<AttemptLogEntry<Exclude<PlatformEvent, typeof WEBHOOK_TEST_EVENT>>[]> {
  if (!(await findRegisteredSkill(deps, workspaceId, skillCode)))
    throw new DomainError('NOT_FOUND', `No registered skill ${skillCode} in this workspace`, { field: 'skill_code' });
  return listAttempts(deps, skillTargetId(workspaceId, skillCode), limit);
}
