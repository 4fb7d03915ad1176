import * as z from 'zod';

const uuid = z.uuid();

/** Identity ids are UUIDs only: anything else (a sequential id, garbage) is dropped. */
export function uuidOrUndefined(value: unknown): string | undefined {
  return typeof value === 'string' && uuid.safeParse(value).success ? value : undefined;
}
