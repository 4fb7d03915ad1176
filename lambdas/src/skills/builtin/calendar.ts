import { z } from 'zod';
import { createRecord, listRecords } from '../../domain/records';
import type { AgentTool } from '../../runtime/agent-tool';

export const calendarTools: AgentTool[] = [
  {
    name: 'calendar__create_event',
    capability: 'calendar.create_event',
    description: 'Book a calendar event (a meeting, call or demo) with a title, start and end time and attendees',
    effect: 'act',
    input: z.object({
      title: z.string().min(1).max(200),
      starts_at: z.iso.datetime({ offset: true }).describe('Start, ISO 8601 with offset'),
      ends_at: z.iso.datetime({ offset: true }).optional().describe('End; defaults to 30 minutes after the start'),
      attendees: z.array(z.email()).max(100).optional(),
    }),
    execute: async (input, { deps, workspaceId }) => {
      const startsAt = String(input.starts_at);
      const endsAt = (input.ends_at as string | undefined) ?? new Date(Date.parse(startsAt) + 30 * 60_000).toISOString();
      return createRecord(deps, workspaceId, 'event', {
        title: String(input.title),
        starts_at: startsAt,
        ends_at: endsAt,
        attendees: (input.attendees as string[] | undefined) ?? [],
        location: null,
        description: null,
      });
    },
  },
  {
    name: 'calendar__list_events',
    capability: 'calendar.list_events',
    description: 'List the calendar events of the workspace',
    effect: 'read',
    input: z.object({}),
    execute: async (_input, { deps, workspaceId }) => ({ events: (await listRecords(deps, workspaceId, 'event', { limit: 50 })).items }),
  },
];
