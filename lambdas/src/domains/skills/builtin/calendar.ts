import { defineSkill, serviceApi, z } from '@service/skill-sdk';

export const calendarSkill = defineSkill({
  code: 'calendar',
  version: '1.0.0',
  defaultLocale: 'en',
  locales: {
    en: { booked: '{title} booked for {starts_at}', listed: '{count} events' },
    tr: { booked: '{title}, {starts_at} için planlandı', listed: '{count} etkinlik' },
  },
  tools: {
    create_event: {
      description: 'Book a calendar event (a meeting, call or demo) with a title, start and end time and attendees',
      input: {
        title: z.string().min(1).max(200),
        starts_at: z.iso.datetime({ offset: true }).describe('Start, ISO 8601 with offset'),
        ends_at: z.iso.datetime({ offset: true }).optional().describe('End; defaults to 30 minutes after the start'),
        attendees: z.array(z.email()).max(100).optional(),
      },
      annotations: { readOnlyHint: false, destructiveHint: false },
      handler: async (input, ctx) => {
        const event = await serviceApi<{ title: string; starts_at: string }>(ctx, 'skills/calendar/create_event', input);
        return { event, message: ctx.t('booked', { title: event.title, starts_at: event.starts_at }) };
      },
    },
    list_events: {
      description: 'List the calendar events of the workspace',
      annotations: { readOnlyHint: true },
      handler: async (_input, ctx) => {
        const { events } = await serviceApi<{ events: unknown[] }>(ctx, 'skills/calendar/list_events');
        return { events, message: ctx.t('listed', { count: events.length }) };
      },
    },
  },
});
