import { DELIVERED_EVENT_TYPES } from '@service/shared';
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { WebhookEventType } from '../src/events';

/** One entry per payload type this package exports to receivers: the compiler demands every key, and no other. */
const PAYLOAD_TYPES: Record<WebhookEventType, true> = {
  'agent.command.completed': true,
  'agent.command.failed': true,
  'agent.command.action_required': true,
  'knowledge.source.synced': true,
  'knowledge.source.failed': true,
  'conversation.handoff_requested': true,
  'conversation.message_created': true,
  'conversation.closed': true,
  'eval.run.completed': true,
  'audit.event': true,
  'webhook.test': true,
};

describe('the webhook event names', () => {
  it('are exactly the events the REST API delivers and reports (shared EVENT_TYPES and webhook.test), both ways', () => {
    expectTypeOf<(typeof DELIVERED_EVENT_TYPES)[number]>().toEqualTypeOf<WebhookEventType>();
    expect(Object.keys(PAYLOAD_TYPES).sort()).toEqual([...DELIVERED_EVENT_TYPES].sort());
  });
});
