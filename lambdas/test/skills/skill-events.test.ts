import { randomBytes } from 'node:crypto';
import { startSkill, defineSkill, z, type RunningSkill } from '@service/skill-sdk';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { DEMO_WORKSPACE_ID } from '../../src/entries/local/seed';
import { eventIdFrom } from '../../src/domains/webhooks/emit';
import { openApiProblems } from '../support/openapi';
import { usePlatform, type ApiResponse } from '../support/platform';

// Retries after 0.6 s, 3 s, 9 s and 36 s.
const ctx = usePlatform({ env: { WEBHOOK_ALLOW_LOCAL: '1', WEBHOOK_RETRY_SCALE: '0.005' } });

const BEARER = 'crm-bearer-0123456789abcdef';
const TURN_TOKEN_SECRET = randomBytes(32).toString('hex');
const received: { type: string; contactId: unknown; accountId: string | undefined }[] = [];

const crm = defineSkill({
  code: 'crm',
  version: '1.0.0',
  defaultLocale: 'en',
  tools: {
    ping: { description: 'Answers pong', annotations: { readOnlyHint: true }, input: { note: z.string().optional() }, handler: () => ({ pong: true }) },
  },
  events: {
    'contact.created': (data, eventCtx) =>
      void received.push({ type: 'contact.created', contactId: (data as { id?: unknown }).id, accountId: eventCtx.accountId }),
    'skill.installed': (_data, eventCtx) => void received.push({ type: 'skill.installed', contactId: undefined, accountId: eventCtx.accountId }),
  },
});
const quiet = { error: () => undefined, warn: () => undefined, info: () => undefined };
const start = (port = 0) => startSkill(crm, { port, bearer: BEARER, turnTokenSecret: TURN_TOKEN_SECRET, log: quiet });

let skill: RunningSkill;
afterAll(() => skill?.close());

const createContact = async (name: string) => {
  const created = await ctx.api<{ contact: { id: string } }>('contacts/create/', { body: { name } });
  expect(created.status).toBe(201);
  return created.body.data.contact.id;
};
type Attempt = { event_id: string; event: string; success: boolean; http_status: number | null };
const contactEvents = () => received.filter((event) => event.type === 'contact.created');

describe('inbound events reach installed skills', () => {
  it('registers a skill with the key it already runs with, and tells it it was installed', async () => {
    skill = await start();
    const registered = await ctx.api<{ turn_token_secret: string }>('skills/register/', {
      body: { url: skill.url, bearer: BEARER, turn_token_secret: TURN_TOKEN_SECRET },
    });
    expect(registered.status).toBe(201);
    expect(registered.body.data.turn_token_secret).toBe(TURN_TOKEN_SECRET);
    expect((await ctx.api('skills/install/', { body: { agent_id: ctx.agentId, skill_code: 'crm' } })).status).toBe(200);
    await vi.waitFor(() => expect(received).toContainEqual({ type: 'skill.installed', contactId: undefined, accountId: DEMO_WORKSPACE_ID }), {
      timeout: 10_000,
    });
  });

  it('delivers contact.created once per created contact, with the bearer and a turn token for the workspace', async () => {
    const ids = [await createContact('Ada'), await createContact('Grace')];
    await vi.waitFor(
      () =>
        expect(
          contactEvents()
            .map((event) => event.contactId)
            .sort(),
        ).toEqual([...ids].sort()),
      { timeout: 10_000 },
    );
    expect(contactEvents().every((event) => event.accountId === DEMO_WORKSPACE_ID)).toBe(true);
  });

  it('delivers it again once the skill is back after being down for a while', async () => {
    const port = skill.port;
    await skill.close();
    const id = await createContact('Linus');
    const log = async () => (await ctx.api<{ attempts: Attempt[] }>('skills/deliveries/?skill_code=crm')).body.data.attempts;
    // Down across a retry: two attempts failed before it comes back; the skill's delivery log shows them.
    await vi.waitFor(
      async () => expect((await log()).filter((attempt) => attempt.event_id === eventIdFrom(id) && !attempt.success).length).toBeGreaterThanOrEqual(2),
      { timeout: 10_000 },
    );
    expect(contactEvents().map((event) => event.contactId)).not.toContain(id);
    skill = await start(port);
    await vi.waitFor(() => expect(contactEvents().map((event) => event.contactId)).toContain(id), { timeout: 15_000 });
    expect(contactEvents().filter((event) => event.contactId === id)).toHaveLength(1);
    const logged = await ctx.api<{ attempts: Attempt[] }>('skills/deliveries/?skill_code=crm');
    expect(openApiProblems('skillsDeliveries', logged as ApiResponse<unknown>)).toEqual([]);
    expect(logged.body.data.attempts[0]).toMatchObject({ event: 'contact.created', success: true, http_status: 200 });
    expect((await ctx.api('skills/deliveries/?skill_code=nobody')).status).toBe(404);
  });
});
