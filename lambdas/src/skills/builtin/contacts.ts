import { z } from 'zod';
import { createRecord, listRecords } from '../../domain/records';
import type { AgentTool } from '../../runtime/agent-tool';

export const contactTools: AgentTool[] = [
  {
    name: 'contacts__create',
    capability: 'contacts.create',
    description: 'Create a contact in the workspace address book',
    effect: 'act',
    input: z.object({
      name: z.string().min(1).max(200).describe('Full name of the person'),
      email: z.email().optional().describe('E-mail address'),
      phone: z.string().max(30).optional(),
      company: z.string().max(200).optional(),
    }),
    execute: async (input, { deps, workspaceId }) =>
      createRecord(deps, workspaceId, 'contact', {
        name: String(input.name),
        email: (input.email as string | undefined) ?? null,
        phone: (input.phone as string | undefined) ?? null,
        company: (input.company as string | undefined) ?? null,
        notes: null,
      }),
  },
  {
    name: 'contacts__search',
    capability: 'contacts.search',
    description: 'Find contacts by name or e-mail',
    effect: 'read',
    input: z.object({ query: z.string().min(1).max(200).describe('Part of a name or e-mail') }),
    execute: async (input, { deps, workspaceId }) => {
      const query = String(input.query).toLowerCase();
      const { items } = await listRecords<{ name: string; email: string | null }>(deps, workspaceId, 'contact', { limit: 100 });
      return { contacts: items.filter((contact) => `${contact.name} ${contact.email ?? ''}`.toLowerCase().includes(query)) };
    },
  },
];
