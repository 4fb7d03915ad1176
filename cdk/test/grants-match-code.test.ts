import { describe, expect, it } from 'vitest';
import { FUNCTIONS } from '../lib/functions';
import { existingRepoFile } from '../lib/repo-paths';
import { handlerUsage } from './support/handler-usage';

/**
 * The function list is the IAM policy: a table or queue the handler's code uses but its entry does not list is an
 * AccessDenied in production; one it lists but never uses is a grant too many. Checked for every handler file that
 * exists, so the list and the code cannot drift apart.
 */
const existing = FUNCTIONS.flatMap((definition) => {
  const entry = existingRepoFile(definition.entry);
  return entry ? [{ definition, entry }] : [];
});

describe.each(existing.map(({ definition, entry }) => [definition.entry, definition, entry] as const))('%s', (_, definition, entry) => {
  it('is granted exactly the tables its code uses', async () => {
    const usage = await handlerUsage(entry);
    const granted = [...new Set([...definition.reads, ...definition.writes, ...(definition.appends ?? [])])].sort();
    expect(granted, `update the "${definition.id}" entry in cdk/lib/functions.ts`).toEqual([...usage.tables].sort());
  });

  it('may send to exactly the queues its code sends to', async () => {
    const usage = await handlerUsage(entry);
    expect([...definition.sendsTo].sort(), `update the "${definition.id}" entry in cdk/lib/functions.ts`).toEqual([...usage.queues].sort());
  });
});
