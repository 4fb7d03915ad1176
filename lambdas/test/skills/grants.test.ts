import { describe, expect, it } from 'vitest';
import { scriptedModel } from '../support/scripted-model';
import { openApiProblems } from '../support/openapi';
import { usePlatform, type ApiResponse } from '../support/platform';
import { command, waitForRun } from '../support/runs';
import { envelopeTurn, offeredTools } from './helpers';

describe('capability grants decide which skill tools an agent run may use', () => {
  const model = scriptedModel([
    { toolCalls: [{ toolName: 'tasks__create', input: { title: 'Call Acme back', due_at: '2030-01-02T09:00:00Z' } }] },
    { text: 'I created the task.' },
    envelopeTurn('Task created.'),
    { text: 'I cannot create tasks here.' },
    envelopeTurn('No task tool.'),
  ]);
  const ctx = usePlatform({ model });

  it('calls a granted tool over MCP and reports it in the run’s actions', async () => {
    const runId = await command(ctx.api, { agent_id: ctx.agentId, instruction: 'Create a task to call Acme back.', autonomy: 'full' });
    const run = await waitForRun(ctx.api, runId);
    expect(run.status).toBe('completed');
    expect(run.output).toMatchObject({ result: 'ok', actions: ['tasks.create'] });
    const tasks = await ctx.api<{ tasks: { title: string; agent_id: string; due_at: string }[] }>('tasks/list/');
    expect(tasks.body.data.tasks).toContainEqual(expect.objectContaining({ title: 'Call Acme back', agent_id: ctx.agentId, due_at: '2030-01-02T09:00:00Z' }));
    expect(offeredTools(model.calls[0])).toEqual(expect.arrayContaining(['tasks__create', 'tasks__list', 'contacts__create', 'email__send']));
  });

  it('never offers the model a tool whose capability the caller’s role lost', async () => {
    const revoked = await ctx.api('grants/revoke/', { body: { role: 'admin', capability: 'tasks.create' } });
    expect(revoked.status).toBe(200);
    const runId = await command(ctx.api, { agent_id: ctx.agentId, instruction: 'Create a task to call Acme back.', autonomy: 'full' });
    const run = await waitForRun(ctx.api, runId);
    expect(run.output).toMatchObject({ actions: [] });
    const offered = offeredTools(model.calls[3]);
    expect(offered).not.toContain('tasks__create');
    expect(offered).toContain('tasks__list');
  });

  it('lists and creates roles; grants and revokes capabilities, checked against the OpenAPI document', async () => {
    const check = <T>(name: Parameters<typeof openApiProblems>[0], response: ApiResponse<T>) =>
      expect(openApiProblems(name, response as ApiResponse<unknown>)).toEqual([]);
    const roles = await ctx.api<{ roles: { name: string; builtin: boolean }[] }>('roles/list/');
    check('rolesList', roles);
    expect(roles.body.data.roles.filter((role) => role.builtin).map((role) => role.name)).toEqual(['owner', 'admin', 'member', 'public']);
    const created = await ctx.api('roles/create/', { body: { name: 'sales-rep', description: 'Field sales' } });
    expect(created.status).toBe(201);
    check('rolesCreate', created);
    expect((await ctx.api('roles/create/', { body: { name: 'sales-rep' } })).body.error).toEqual({ code: 'VALIDATION_ERROR', field: 'name' });
    expect((await ctx.api('roles/create/', { body: { name: 'admin' } })).body.error).toEqual({ code: 'VALIDATION_ERROR', field: 'name' });

    const granted = await ctx.api('grants/create/', { body: { role: 'sales-rep', capability: 'contacts.search' } });
    expect(granted.status).toBe(201);
    check('grantsCreate', granted);
    const listed = await ctx.api<{ grants: { role: string; capability: string }[] }>('grants/list/', { query: { role: 'sales-rep' } });
    check('grantsList', listed);
    expect(listed.body.data.grants).toEqual([expect.objectContaining({ role: 'sales-rep', capability: 'contacts.search' })]);
    check('grantsRevoke', await ctx.api('grants/revoke/', { body: { role: 'sales-rep', capability: 'contacts.search' } }));

    expect((await ctx.api('grants/create/', { body: { role: 'ghost', capability: 'contacts.search' } })).body.error).toEqual({
      code: 'NOT_FOUND',
      field: 'role',
    });
    expect((await ctx.api('grants/create/', { body: { role: 'member', capability: 'contacts.teleport' } })).body.error).toEqual({
      code: 'NOT_FOUND',
      field: 'capability',
    });
    expect((await ctx.api('grants/create/', { body: { role: 'member', capability: 'contacts' } })).body.error).toEqual({
      code: 'VALIDATION_ERROR',
      field: 'capability',
    });
    expect((await ctx.api('grants/revoke/', { body: { role: 'member', capability: 'email.send' } })).body.error).toEqual({
      code: 'NOT_FOUND',
      field: 'capability',
    });
  });

  it('lists the built-in skills with their tools as code__action and capabilities code.action', async () => {
    const skills = await ctx.api<{ skills: { code: string; source: string; tools: { name: string; capability: string }[] }[] }>('skills/list/');
    expect(openApiProblems('skillsList', skills as ApiResponse<unknown>)).toEqual([]);
    expect(skills.body.data.skills.map((skill) => skill.code)).toEqual(['contacts', 'calendar', 'tasks', 'email', 'knowledge']);
    expect(skills.body.data.skills.find((skill) => skill.code === 'email')).toMatchObject({
      source: 'builtin',
      tools: [{ name: 'email__send', capability: 'email.send' }],
    });
  });
});
