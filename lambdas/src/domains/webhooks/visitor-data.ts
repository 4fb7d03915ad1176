import type { Deps } from '../../infra/deps';
import { deleteDeliveryItem, queryConversationDeliveries } from './delivery-repository';

/**
 * The webhook deliveries and attempt-log entries of a visitor's conversations' events (whose payloads name the
 * visitor): exported with the visitor's data, erased with it (visitors/owners.ts). Read by conversation, never by scan.
 */
export const webhookDeliveriesOfVisitor = {
  async find(deps: Deps, scope: { conversations: { conversationId: string }[] }) {
    const traces = (await Promise.all(scope.conversations.map((conversation) => queryConversationDeliveries(deps, conversation.conversationId)))).flat();
    return {
      counts: { webhook_deliveries: traces.length },
      exported: {
        deliveries: traces.flatMap((trace) =>
          trace.kind === 'delivery' && trace.payload !== undefined
            ? [{ subscriptionId: trace.subscriptionId, eventId: trace.eventId, event: trace.event, createdAt: trace.createdAt, payload: trace.payload }]
            : [],
        ),
      },
      erase: async () => void (await Promise.all(traces.map((trace) => deleteDeliveryItem(deps, trace)))),
    };
  },
};
