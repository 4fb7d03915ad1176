import * as z from 'zod';
import { email, isoDateTime, limitParam, text } from './primitives';

/**
 * What creating a contact takes, one definition for every way in: the REST API (below, plus notes), the skills'
 * `contacts/create` method and the built-in contacts skill's tool.
 */
export const ContactFields = {
  name: text(200),
  email: email.optional(),
  phone: z
    .string()
    .trim()
    .regex(/^\+?[0-9 ()-]{5,30}$/, { error: 'phone must be digits, spaces and + ( ) -' })
    .optional(),
  company: text(200).optional(),
};

export const CreateContactBody = z.object({ ...ContactFields, notes: text(4000).optional() }).strict();

export const CreateEventBody = z
  .object({
    title: text(200),
    starts_at: isoDateTime,
    ends_at: isoDateTime,
    attendees: z.array(email).max(100).optional(),
    location: text(500).optional(),
    description: text(4000).optional(),
  })
  .strict()
  .refine((event) => Date.parse(event.ends_at) > Date.parse(event.starts_at), {
    error: 'ends_at must be after starts_at',
    path: ['ends_at'],
  });

export const CreateTaskBody = z
  .object({
    title: text(200),
    description: text(4000).optional(),
    due_at: isoDateTime.optional(),
    agent_id: z.uuid().optional(),
  })
  .strict();

const recordBase = { id: z.string(), created_at: isoDateTime };

export const Contact = z
  .object({
    ...recordBase,
    name: z.string(),
    email: z.string().nullable(),
    phone: z.string().nullable(),
    company: z.string().nullable(),
    notes: z.string().nullable(),
  })
  .meta({ id: 'Contact' });

export const CalendarEvent = z
  .object({
    ...recordBase,
    title: z.string(),
    starts_at: isoDateTime,
    ends_at: isoDateTime,
    attendees: z.array(z.string()),
    location: z.string().nullable(),
    description: z.string().nullable(),
  })
  .meta({ id: 'CalendarEvent' });

export const Task = z
  .object({
    ...recordBase,
    title: z.string(),
    description: z.string().nullable(),
    due_at: isoDateTime.nullable(),
    agent_id: z.string().nullable(),
    status: z.enum(['open', 'done']),
  })
  .meta({ id: 'Task' });

export const ListQuery = z.object({ limit: limitParam, cursor: z.string().max(256).optional() });
export const Page = { next_cursor: z.string().nullable() };

export const OutboxEmail = z
  .object({ ...recordBase, from: z.string(), to: z.string(), subject: z.string(), body: z.string(), run_id: z.string(), agent_id: z.string() })
  .meta({ id: 'OutboxEmail' });
