import { schemas } from '@service/shared';
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { WebhookEventType } from '../src/events';

/** One entry per payload type this package exports to receivers: the compiler demands every key, and no other. */
const PAYLOAD_TYPES: Record<WebhookEventType, true> = { 'agent.command.completed': true, 'agent.command.failed': true };

describe('the webhook event names', () => {
  it('are exactly the events the REST API subscribes to and reports (shared EVENT_TYPES), both ways', () => {
    expectTypeOf<(typeof schemas.EVENT_TYPES)[number]>().toEqualTypeOf<WebhookEventType>();
    expect(Object.keys(PAYLOAD_TYPES).sort()).toEqual([...schemas.EVENT_TYPES].sort());
  });
});
