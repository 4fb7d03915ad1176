import { createRecord, listRecords } from '../../../domains/records/records';
import type { EndpointHandlers } from './types';

type RecordEndpoints = 'contactsCreate' | 'contactsList' | 'calendarEventCreate' | 'calendarEventList' | 'tasksCreate' | 'tasksList' | 'emailOutbox';

export const recordEndpoints: EndpointHandlers<RecordEndpoints> = {
  contactsCreate: async ({ deps, workspace, body, action }) => {
    const contact = await createRecord(
      deps,
      workspace.id,
      'contact',
      {
        name: body.name,
        email: body.email ?? null,
        phone: body.phone ?? null,
        company: body.company ?? null,
        notes: body.notes ?? null,
      },
      action,
    );
    return { data: { contact }, msg: `Contact ${contact.name} created` };
  },
  contactsList: async ({ deps, workspace, query }) => {
    const page = await listRecords<{ name: string; email: string | null; phone: string | null; company: string | null; notes: string | null }>(
      deps,
      workspace.id,
      'contact',
      query,
    );
    return { data: { contacts: page.items, next_cursor: page.nextCursor } };
  },
  calendarEventCreate: async ({ deps, workspace, body, action }) => {
    const event = await createRecord(
      deps,
      workspace.id,
      'event',
      {
        title: body.title,
        starts_at: body.starts_at,
        ends_at: body.ends_at,
        attendees: body.attendees ?? [],
        location: body.location ?? null,
        description: body.description ?? null,
      },
      action,
    );
    return { data: { event }, msg: `Event ${event.title} created` };
  },
  calendarEventList: async ({ deps, workspace, query }) => {
    const page = await listRecords<{
      title: string;
      starts_at: string;
      ends_at: string;
      attendees: string[];
      location: string | null;
      description: string | null;
    }>(deps, workspace.id, 'event', query);
    return { data: { events: page.items, next_cursor: page.nextCursor } };
  },
  tasksCreate: async ({ deps, workspace, body, action }) => {
    const task = await createRecord(
      deps,
      workspace.id,
      'task',
      {
        title: body.title,
        description: body.description ?? null,
        due_at: body.due_at ?? null,
        agent_id: body.agent_id ?? null,
        status: 'open' as const,
      },
      action,
    );
    return { data: { task }, msg: `Task ${task.title} created` };
  },
  tasksList: async ({ deps, workspace, query }) => {
    const page = await listRecords<{ title: string; description: string | null; due_at: string | null; agent_id: string | null; status: 'open' | 'done' }>(
      deps,
      workspace.id,
      'task',
      query,
    );
    return { data: { tasks: page.items, next_cursor: page.nextCursor } };
  },
  emailOutbox: async ({ deps, workspace, query }) => {
    const page = await listRecords<{ from: string; to: string; subject: string; body: string; run_id: string; agent_id: string }>(
      deps,
      workspace.id,
      'email',
      query,
    );
    return { data: { emails: page.items, next_cursor: page.nextCursor } };
  },
};
