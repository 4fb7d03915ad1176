import { beforeAll, describe, expect, it } from 'vitest';
import { scriptedModel } from '../support/scripted-model';
import { usePlatform } from '../support/platform';
import { command, waitForRun } from '../support/runs';
import { envelopeTurn, offeredTools } from '../skills/helpers';
import { addPerson, call, signIn, type Person } from './helpers';

/** One run without a tool call: the model's answer, then its part of the default envelope. */
const quietRun = (summary: string) => [{ text: summary }, envelopeTurn(summary)];

describe('a run commanded with a session acts for the member’s role, a company-defined one included', () => {
  const model = scriptedModel([...quietRun('first'), ...quietRun('second'), ...quietRun('third'), ...quietRun('fourth')]);
  const ctx = usePlatform({ model });
  let rep: Person;
  let staff: Person;
  beforeAll(async () => {
    expect((await ctx.api('roles/create/', { body: { name: 'sales-rep', description: 'Field sales' } })).status).toBe(201);
    await addPerson(ctx.platform, 'rep@demo.example', 'sales-rep');
    await addPerson(ctx.platform, 'staff@demo.example', 'member');
    rep = await signIn(ctx.platform, 'rep@demo.example');
    staff = await signIn(ctx.platform, 'staff@demo.example');
  });

  /** Commands the demo agent with the person's session (as the dashboard's Runs screen does); the tools its run was offered. */
  async function toolsOfaRunBy(person: Person | 'api key'): Promise<string[]> {
    const body = { agent_id: ctx.agentId, instruction: 'Look up Acme in the contacts.', autonomy: 'full' };
    const callsBefore = model.calls.length;
    let runId: string;
    if (person === 'api key') runId = await command(ctx.api, body);
    else {
      const commanded = await call<{ run: { run_id: string } }>(ctx.platform, 'agents/command', { body, headers: person.headers });
      expect(commanded.status, JSON.stringify(commanded.body)).toBe(202);
      runId = commanded.body.data.run.run_id;
    }
    expect((await waitForRun(ctx.api, runId)).status).toBe('completed');
    return offeredTools(model.calls[callsBefore]);
  }

  it('offers a company role no tool until a capability is granted to it, then exactly that one', async () => {
    expect(await toolsOfaRunBy(rep)).toEqual([]);

    const granted = await ctx.api('grants/create/', { body: { role: 'sales-rep', capability: 'contacts.search' } });
    expect(granted.status).toBe(201);
    expect(await toolsOfaRunBy(rep)).toEqual(['contacts__search']);
  });

  it('offers a member the read-only tools granted to member, and an API key still every tool granted to admin', async () => {
    const ofMember = await toolsOfaRunBy(staff);
    expect(ofMember).toContain('contacts__search');
    expect(ofMember).not.toContain('contacts__create');
    expect(ofMember).not.toContain('tasks__create');

    expect(await toolsOfaRunBy('api key')).toEqual(expect.arrayContaining(['contacts__search', 'contacts__create', 'tasks__create', 'email__send']));
  });
});
