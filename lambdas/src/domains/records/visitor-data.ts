import type { Deps } from '../../infra/deps';
import { deleteRecord, recordsFromConversations } from './records';

/** The contacts agents created in a visitor's conversations: exported with the visitor's data, erased with it (visitors/owners.ts). */
export const contactsOfVisitor = {
  async find(deps: Deps, scope: { workspaceId: string; conversations: { conversationId: string }[] }) {
    const contacts = await recordsFromConversations<Record<string, unknown>>(
      deps,
      scope.workspaceId,
      'contact',
      scope.conversations.map((conversation) => conversation.conversationId),
    );
    return {
      counts: { contacts: contacts.length },
      exported: { contacts: contacts.map((contact) => contact.fields) },
      erase: async () => void (await Promise.all(contacts.map((contact) => deleteRecord(deps, contact)))),
    };
  },
};
