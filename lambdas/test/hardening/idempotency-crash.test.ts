import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Deps } from '../../src/infra/deps';
import { createApiHandler } from '../../src/surfaces/rest-api/handler';
import { listAgents } from '../../src/domains/agents/agents';
import { listApiKeys } from '../../src/domains/access/api-keys';
import { listMcpKeys } from '../../src/domains/connections/mcp-keys';
import { IDEMPOTENCY_LOCK_MS } from '../../src/infra/store/idempotency';
import { listRuns } from '../../src/domains/runs/runs';
import { listGrants } from '../../src/domains/skills/grants';
import { createRole, listRoles } from '../../src/domains/skills/roles';
import { listSubscriptions } from '../../src/domains/webhooks/subscriptions';
import { apiEvent, faultyDeps, invoke, type FaultMode } from '../support/faults';
import { usePlatform } from '../support/platform';

/** What one request creates, counted in the store by the unique label the test gave it. */
interface Create {
  path: string;
  /** What must exist before the request (e.g. the role a grant is for). */
  prepare?: (deps: Deps, workspaceId: string, label: string) => Promise<void>;
  body: (label: string) => Record<string, unknown>;
  count: (deps: Deps, workspaceId: string, label: string) => Promise<number>;
}

const records = (kind: string, field: string) => async (deps: Deps, workspaceId: string, label: string) => {
  const result = await deps.store.doc.send(
    new QueryCommand({
      TableName: deps.store.table('records'),
      KeyConditionExpression: 'workspaceId = :w AND begins_with(sk, :k)',
      ExpressionAttributeValues: { ':w': workspaceId, ':k': `${kind}#` },
    }),
  );
  return (result.Items ?? []).filter((item) => (item.fields as Record<string, unknown>)[field] === label).length;
};

async function runMessages(deps: Deps, runId: string): Promise<number> {
  const result = await deps.store.doc.send(
    new QueryCommand({
      TableName: deps.store.table('localQueue'),
      KeyConditionExpression: '#q = :q',
      ExpressionAttributeNames: { '#q': 'queue' },
      ExpressionAttributeValues: { ':q': 'runs' },
    }),
  );
  return (result.Items ?? []).filter((item) => (JSON.parse(item.body as string) as { runId: string }).runId === runId).length;
}

describe('Idempotency-Key: a crash or a failure at any step, then the retry, performs the action exactly once', () => {
  const ctx = usePlatform({ env: { RATE_LIMIT_PER_MINUTE: '100000' } });
  let serial = 0;
  // Every injected throw is logged as an unhandled error by design; keep the test output readable.
  beforeAll(() => void vi.spyOn(console, 'error').mockImplementation(() => undefined));
  // The files after this one in the same worker (the tier runs unisolated) log as usual.
  afterAll(() => vi.restoreAllMocks());

  const creates: Record<string, Create> = {
    'agents/command': {
      path: 'agents/command',
      body: (label) => ({ agent_id: ctx.agentId, instruction: label, autonomy: 'full' }),
      count: async (deps, workspaceId, label) => {
        const runs = (await listRuns(deps, workspaceId, ctx.agentId, 100)).filter((run) => run.instruction === label);
        // A queued run always has its message (a crash between send and mark may leave two; the runner's lease runs it once).
        for (const run of runs) expect((await runMessages(deps, run.runId)) > 0).toBe(run.status === 'queued');
        return runs.length;
      },
    },
    'contacts/create': { path: 'contacts/create', body: (label) => ({ name: label }), count: records('contact', 'name') },
    'tasks/create': { path: 'tasks/create', body: (label) => ({ title: label }), count: records('task', 'title') },
    'calendar/event_create': {
      path: 'calendar/event_create',
      body: (label) => ({ title: label, starts_at: '2030-01-01T10:00:00Z', ends_at: '2030-01-01T11:00:00Z' }),
      count: records('event', 'title'),
    },
    'agents/create': {
      path: 'agents/create',
      body: (label) => ({ preset: 'support', name: label }),
      count: async (deps, workspaceId, label) => (await listAgents(deps, workspaceId)).filter((agent) => agent.name === label).length,
    },
    'webhooks/create': {
      path: 'webhooks/create',
      body: (label) => ({ url: `https://example.com/${label}`, events: ['agent.command.completed'] }),
      count: async (deps, workspaceId, label) => (await listSubscriptions(deps, workspaceId)).filter((sub) => sub.url.endsWith(`/${label}`)).length,
    },
    'roles/create': {
      path: 'roles/create',
      body: (label) => ({ name: label }),
      count: async (deps, workspaceId, label) => (await listRoles(deps, workspaceId)).filter((role) => role.name === label).length,
    },
    'grants/create': {
      path: 'grants/create',
      prepare: async (deps, workspaceId, label) => void (await createRole(deps, workspaceId, label, 'crash test')),
      body: (label) => ({ role: label, capability: 'contacts.create' }),
      count: async (deps, workspaceId, label) => (await listGrants(deps, workspaceId)).filter((grant) => grant.role === label).length,
    },
    'keys/create': {
      path: 'keys/create',
      body: (label) => ({ name: label }),
      count: async (deps, workspaceId, label) => (await listApiKeys(deps, workspaceId)).filter((key) => key.name === label).length,
    },
    'connections/key_create': {
      path: 'connections/key_create',
      body: (label) => ({ name: label, scopes: ['agents:read'] }),
      count: async (deps, workspaceId, label) => (await listMcpKeys(deps, workspaceId)).filter((key) => key.name === label).length,
    },
  };

  /** One attempt that fails at operation `step`, then the client's retry (after the lock lapsed, for a crash). */
  async function failThenRetry(create: Create, step: number | undefined, mode: FaultMode) {
    serial += 1;
    const label = `crash-${mode}-${serial}`;
    await create.prepare?.(ctx.platform.deps, ctx.platform.demo.workspaceId, label);
    const event = () => apiEvent('POST', create.path, { body: create.body(label), headers: { 'x-service-api-key': ctx.key, 'idempotency-key': label } });
    const attempt = faultyDeps(ctx.platform.deps, step, mode);
    const first = invoke(createApiHandler(attempt.deps), event());
    // A crashed attempt never answers: once the fault fired it is abandoned, as a dead process would be. (Cached
    // reads make later attempts shorter, so an attempt may also finish before reaching the step.)
    await Promise.race([attempt.reached, first]);
    const retry = faultyDeps(ctx.platform.deps, undefined, mode, mode === 'crash' ? IDEMPOTENCY_LOCK_MS + 1_000 : 0);
    const answer = await invoke(createApiHandler(retry.deps), event());
    return { label, answer, steps: attempt.steps };
  }

  for (const [name, create] of Object.entries(creates)) {
    it(`${name}: every step`, async () => {
      await ctx.platform.queue.stop();
      const { steps } = await failThenRetry(create, undefined, 'crash');
      expect(steps.length).toBeGreaterThan(2);
      for (const mode of ['crash', 'throw'] as const) {
        for (let step = 0; step < steps.length; step += 1) {
          const { label, answer } = await failThenRetry(create, step, mode);
          const where = `${mode} at #${step} of ${steps.join(', ')}`;
          expect(answer.statusCode, where).toBeLessThan(300);
          expect(await create.count(ctx.platform.deps, ctx.platform.demo.workspaceId, label), where).toBe(1);
        }
      }
    });
  }
});
