import { defineSkill, serviceApi, z } from '@service/skill-sdk';

/** The workspace address book. Records live on the platform; the skill reaches them with serviceApi. */
export const contactsSkill = defineSkill({
  code: 'contacts',
  version: '1.0.0',
  defaultLocale: 'en',
  locales: {
    en: { created: 'Contact {name} saved', found: '{count} contacts found' },
    tr: { created: '{name} kişisi kaydedildi', found: '{count} kişi bulundu' },
  },
  tools: {
    create: {
      description: 'Create a contact in the workspace address book',
      input: {
        name: z.string().min(1).max(200).describe('Full name of the person'),
        email: z.email().optional().describe('E-mail address'),
        phone: z.string().max(30).optional(),
        company: z.string().max(200).optional(),
      },
      annotations: { readOnlyHint: false, destructiveHint: false },
      handler: async (input, ctx) => {
        const contact = await serviceApi<{ name: string }>(ctx, 'skills/contacts/create', input);
        return { contact, message: ctx.t('created', { name: contact.name }) };
      },
    },
    search: {
      description: 'Find contacts by name or e-mail',
      input: { query: z.string().min(1).max(200).describe('Part of a name or e-mail') },
      annotations: { readOnlyHint: true },
      handler: async (input, ctx) => {
        const { contacts } = await serviceApi<{ contacts: unknown[] }>(ctx, 'skills/contacts/search', input);
        return { contacts, message: ctx.t('found', { count: contacts.length }) };
      },
    },
  },
});
