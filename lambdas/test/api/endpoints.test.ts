import { Validator } from '@seriousme/openapi-schema-validator';
import { ENDPOINTS, type EndpointName } from '@service/shared';
import { SKILL_ACCESS_ENDPOINTS } from '../../../shared/src/api/skills';
import { WEBHOOK_DELIVERY_ENDPOINTS } from '../../../shared/src/api/webhook-deliveries';
import { PEOPLE_ENDPOINTS } from '../../../shared/src/api/people';
import { AUTH_ENDPOINTS } from '../../../shared/src/api/auth';
import { CONVERSATION_ENDPOINTS } from '../../../shared/src/api/conversations';
import { MAIL_MESSAGE_ENDPOINTS } from '../../../shared/src/api/mail-messages';
import { VISITOR_ENDPOINTS } from '../../../shared/src/api/visitors';
import { CONNECTION_ENDPOINTS } from '../../../shared/src/api/connections';
import { describe, expect, it } from 'vitest';
import { openApiProblems } from '../support/openapi';
import { usePlatform, type ApiResponse } from '../support/platform';

describe('every endpoint answers as its OpenAPI document says', () => {
  const ctx = usePlatform();
  const checked = new Set<EndpointName>();
  const call = async <T = Record<string, unknown>>(name: EndpointName, options: Parameters<typeof ctx.api>[1] = {}) => {
    const response = await ctx.api<T>(`${ENDPOINTS[name].path}/`, { method: ENDPOINTS[name].method, ...options });
    expect(response.status, JSON.stringify(response.body)).toBe(ENDPOINTS[name].status);
    expect(openApiProblems(name, response as ApiResponse<unknown>)).toEqual([]);
    checked.add(name);
    return response;
  };

  it('serves a valid OpenAPI 3.0 document at {base_url}/openapi.json without a key', async () => {
    const response = await fetch(`${ctx.platform.apiBaseUrl}/openapi.json`);
    expect(response.status).toBe(200);
    const document = (await response.json()) as { openapi: string; paths: Record<string, unknown>; servers: { url: string }[] };
    const result = await new Validator().validate(document as never);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(document.openapi).toMatch(/^3\.0\./);
    expect(document.servers[0]!.url).toBe(ctx.platform.apiBaseUrl);
    for (const endpoint of Object.values(ENDPOINTS)) expect(document.paths).toHaveProperty([`/${endpoint.path}/`]);
  });

  it('agents: presets, create, list, get, command, command_status, runs', async () => {
    const presets = await call<{ presets: { id: string }[] }>('agentsPresets');
    expect(presets.body.data.presets.map((p) => p.id)).toContain('support');
    const created = await call<{ agent: { id: string; name: string; skills: string[] } }>('agentsCreate', { body: { preset: 'scheduler', name: 'Nora' } });
    expect(created.body.data.agent).toMatchObject({ name: 'Nora', skills: ['calendar', 'email', 'tasks'] });
    const agentId = created.body.data.agent.id;
    const list = await call<{ agents: { id: string }[] }>('agentsList');
    expect(list.body.data.agents.map((a) => a.id)).toContain(agentId);
    expect(list.body.data.agents[0]!.id).toBe(ctx.agentId);
    await call('agentsGet', { query: { agent_id: agentId } });
    const command = await call<{ run: { run_id: string; status: string; autonomy: string } }>('agentsCommand', {
      body: { agent_id: agentId, instruction: 'Book a demo with Ada next Tuesday', data: { company: 'Acme' }, autonomy: 'full' },
    });
    expect(command.body.data.run).toMatchObject({ status: 'queued', autonomy: 'full' });
    expect(command.body.data.run.run_id).toMatch(/^cmd_/);
    expect(command.body.msg).toContain('queued');
    const status = await call<{ run_id: string; status: string }>('agentsCommandStatus', { query: { run_id: command.body.data.run.run_id } });
    expect(status.body.data.run_id).toBe(command.body.data.run.run_id);
    const runs = await call<{ runs: { run_id: string }[] }>('agentsRuns', { query: { agent_id: agentId } });
    expect(runs.body.data.runs.map((r) => r.run_id)).toEqual([command.body.data.run.run_id]);
    const identity = await call<{ agent_id: string; identity_secret: string }>('agentsIdentitySecret', { body: { agent_id: agentId } });
    expect(identity.body.data).toMatchObject({ agent_id: agentId, identity_secret: expect.stringMatching(/^vis_/) });
  });

  it('agents/command_cancel and email/outbox', async () => {
    await ctx.platform.queue.stop();
    const queued = await ctx.api<{ run: { run_id: string } }>('agents/command/', { body: { agent_id: ctx.agentId, instruction: 'Wait' } });
    const cancelled = await call<{ status: string }>('agentsCommandCancel', { body: { run_id: queued.body.data.run.run_id } });
    expect(cancelled.body.data.status).toBe('cancelled');
    ctx.platform.queue.start();
    await call('emailOutbox');
  });

  it('skills: list, install, uninstall', async () => {
    const skills = await call<{ skills: { code: string; tools: { name: string; capability: string }[] }[] }>('skillsList');
    const calendar = skills.body.data.skills.find((s) => s.code === 'calendar')!;
    expect(calendar.tools[0]).toMatchObject({ name: 'calendar__create_event', capability: 'calendar.create_event' });
    await call('skillsInstall', { body: { agent_id: ctx.agentId, skill_code: 'calendar' } });
    const agent = await ctx.api<{ agent: { skills: string[] } }>('agents/get/', { query: { agent_id: ctx.agentId } });
    expect(agent.body.data.agent.skills).toContain('calendar');
    await call('skillsUninstall', { body: { agent_id: ctx.agentId, skill_code: 'calendar' } });
    const unknown = await ctx.api('skills/install/', { body: { agent_id: ctx.agentId, skill_code: 'teleport' } });
    expect(unknown.body.error).toEqual({ code: 'NOT_FOUND', field: 'skill_code' });
  });

  it('records: contacts, calendar events, tasks, with paging', async () => {
    await call('contactsCreate', { body: { name: 'Linus', email: 'linus@example.com', phone: '+90 555 000 11 22' } });
    await call('contactsCreate', { body: { name: 'Margaret' } });
    const page1 = await call<{ contacts: { name: string }[]; next_cursor: string | null }>('contactsList', { query: { limit: '1' } });
    expect(page1.body.data.contacts.map((c) => c.name)).toEqual(['Margaret']);
    const page2 = await call<{ contacts: { name: string }[] }>('contactsList', { query: { limit: '1', cursor: page1.body.data.next_cursor! } });
    expect(page2.body.data.contacts.map((c) => c.name)).toEqual(['Linus']);
    await call('calendarEventCreate', {
      body: { title: 'Demo', starts_at: '2026-12-01T10:00:00+03:00', ends_at: '2026-12-01T10:30:00+03:00', attendees: ['a@example.com'] },
    });
    await call('calendarEventList');
    await call('tasksCreate', { body: { title: 'Send the contract', due_at: '2026-12-02T17:00:00Z', agent_id: ctx.agentId } });
    const tasks = await call<{ tasks: { status: string }[] }>('tasksList');
    expect(tasks.body.data.tasks[0]!.status).toBe('open');
  });

  it('usage, billing, webhooks and keys', async () => {
    const usage = await call<{ from: string; to: string }>('usageTokens', { query: { from: '2026-01-01', to: '2026-01-31' } });
    expect(usage.body.data).toMatchObject({ from: '2026-01-01', to: '2026-01-31' });
    const billing = await call<{ plan: string }>('billingGet');
    expect(billing.body.data.plan).toBe('partner');
    const created = await call<{ subscription: { id: string; active: boolean }; signing_secret: string }>('webhooksCreate', {
      body: { url: 'https://example.com/hook', events: ['agent.command.completed', 'agent.command.failed'] },
    });
    expect(created.body.data.signing_secret).toMatch(/^whsec_/);
    const listed = await call<{ subscriptions: { id: string; active: boolean }[] }>('webhooksList');
    expect(listed.body.data.subscriptions[0]).toMatchObject({ id: created.body.data.subscription.id, active: true });
    expect(JSON.stringify(listed.body)).not.toContain(created.body.data.signing_secret);
    const insecure = await ctx.api('webhooks/create/', { body: { url: 'http://example.com/hook', events: ['agent.command.completed'] } });
    expect(insecure.body.error).toEqual({ code: 'VALIDATION_ERROR', field: 'url' });
    await call('webhooksDelete', { body: { webhook_id: created.body.data.subscription.id } });
    const key = await call<{ key: { id: string } }>('keysCreate', { body: { name: 'temp' } });
    await call('keysList');
    await call('keysRevoke', { body: { key_id: key.body.data.key.id } });
  });

  it('knowledge: sources, documents, answers, search', async () => {
    const created = await call<{ source: { id: string } }>('knowledgeSourceCreate', { body: { type: 'files', name: 'Docs' } });
    const sourceId = created.body.data.source.id;
    await call('knowledgeSourceList');
    await call('knowledgeSourceGet', { query: { source_id: sourceId } });
    await call('knowledgeSourceUpdate', { body: { source_id: sourceId, name: 'Handbook' } });
    const uploaded = await call<{ document: { id: string } }>('knowledgeDocumentUpload', {
      body: { source_id: sourceId, name: 'faq.md', content_type: 'text/markdown', content: '# FAQ\n\n## Hours\n\nOpen 9 to 5.' },
    });
    await call('knowledgeDocumentList', { query: { source_id: sourceId } });
    await call('knowledgeAnswerCreate', { body: { question: 'Is there parking?', answer: 'Yes, behind the building.', url: 'https://example.com/parking' } });
    const found = await call<{ results: { document_id: string }[] }>('knowledgeSearch', { body: { query: 'opening hours' } });
    expect(found.body.data.results[0]!.document_id).toBe(uploaded.body.data.document.id);
    await call('knowledgeSourceSync', { body: { source_id: sourceId } });
    await call('knowledgeDocumentDelete', { body: { document_id: uploaded.body.data.document.id } });
    await call('knowledgeSourceDelete', { body: { source_id: sourceId } });
    await call('knowledgeUnansweredList', { query: { limit: '10' } });
    const dismissed = await ctx.api('knowledge/unanswered_dismiss/', { body: { question_id: 'unq_none' } });
    expect(dismissed.body.error).toEqual(expect.objectContaining({ code: 'NOT_FOUND', field: 'question_id' }));
  });

  it('reads and sets where traces go', async () => {
    await call('telemetrySettingsUpdate', {
      body: { otlp_endpoint: 'https://collector.example.com/v1/traces', headers: { 'x-api-key': 'k' }, include_content: false },
    });
    await call('telemetrySettingsGet');
    await call('telemetrySettingsUpdate', { body: { otlp_endpoint: null } });
  });

  it('evals: scenarios, eval runs of the live agent and its draft, publishing the draft', async () => {
    const created = await call<{ scenario: { id: string } }>('evalsScenarioCreate', {
      body: {
        agent_id: ctx.agentId,
        name: 'Hours',
        turns: [{ user: 'When are you open?', expect: [{ no_action: true }, { judge: 'It gives the opening hours' }] }],
      },
    });
    const scenarioId = created.body.data.scenario.id;
    await call('evalsScenarioList', { query: { agent_id: ctx.agentId } });
    await call('evalsScenarioUpdate', {
      body: { scenario_id: scenarioId, name: 'Opening hours', turns: [{ user: 'When are you open?', expect: [{ judge: 'It gives the opening hours' }] }] },
    });
    await call('agentsDraftUpdate', { body: { agent_id: ctx.agentId, persona: 'Warm and brief.', skills: ['knowledge'] } });
    await call('agentsDraftGet', { query: { agent_id: ctx.agentId } });
    const started = await call<{ eval_run: { eval_run_id: string } }>('evalsRun', { body: { agent_id: ctx.agentId, draft: true } });
    let status = await call<{ eval_run: { status: string }; results: { expectations: { outcome: string; reason: string }[] }[] }>('evalsRunStatus', {
      query: { eval_run_id: started.body.data.eval_run.eval_run_id },
    });
    for (
      let deadline = Date.now() + 20_000;
      status.body.data.eval_run.status !== 'completed' && Date.now() < deadline;
      await new Promise((done) => setTimeout(done, 100))
    ) {
      status = await call('evalsRunStatus', { query: { eval_run_id: started.body.data.eval_run.eval_run_id } });
    }
    // The offline model never grades a judge criterion, and never passes one silently.
    expect(status.body.data.results[0]!.expectations[0]).toMatchObject({ outcome: 'not_graded', reason: expect.stringContaining('offline') });
    await call('agentsDraftPublish', { body: { agent_id: ctx.agentId, require_suite_pass: true } });
    await call('evalsScenarioDelete', { body: { scenario_id: scenarioId } });
  });

  it('reports how an agent does', async () => {
    const day = new Date().toISOString().slice(0, 10);
    await call('insightsAgent', { query: { agent_id: ctx.agentId, from: day, to: day } });
  });

  it('lists the audit log', async () => {
    await call('auditList', { query: { limit: '5' } });
    const { days } = (await call<{ retention: { days: number } }>('auditRetentionGet')).body.data.retention;
    await call('auditRetentionSet', { body: { days } });
  });

  it('takes paths with or without the trailing slash, and the tr language segment', async () => {
    expect((await ctx.api('agents/list')).status).toBe(200);
    const tr = await fetch(`${ctx.platform.url}/tr/api/v1/agents/list/`, { headers: { 'x-service-api-key': ctx.key } });
    expect(tr.status).toBe(200);
  });

  it('covered every endpoint of the contract', () => {
    const checkedInTheirOwnSuites = new Set<string>([
      ...Object.keys(WEBHOOK_DELIVERY_ENDPOINTS),
      ...Object.keys(SKILL_ACCESS_ENDPOINTS),
      // People and the dashboard's endpoints: lambdas/test/people/*.
      ...Object.keys(AUTH_ENDPOINTS),
      ...Object.keys(PEOPLE_ENDPOINTS),
      ...Object.keys(CONVERSATION_ENDPOINTS),
      // An inbound mail's attachments and held mails: lambdas/test/mail/mail-inbox.test.ts.
      ...Object.keys(MAIL_MESSAGE_ENDPOINTS),
      // A visitor's data: lambdas/test/visitors/visitor-data.test.ts.
      ...Object.keys(VISITOR_ENDPOINTS),
      // MCP connections: lambdas/test/mcp/connections.test.ts.
      ...Object.keys(CONNECTION_ENDPOINTS),
      'agentsUpdate',
      // Dismissing an unanswered question needs one: lambdas/test/knowledge/unanswered.test.ts.
      'knowledgeUnansweredDismiss',
      // The run's stream: lambdas/test/runs/run-steps.test.ts.
      'agentsCommandStream',
      // Approvals: lambdas/test/runs/approvals.test.ts.
      'agentsCommandApprove',
      'agentsCommandReject',
      'agentsApprovals',
      // Presigned uploads exist where files are kept in S3: lambdas/test/bundled/bundled-platform.test.ts (the local
      // refusal: lambdas/test/knowledge/knowledge-api.test.ts).
      'knowledgeDocumentUploadUrl',
    ]);
    expect([...checked].sort()).toEqual((Object.keys(ENDPOINTS) as EndpointName[]).filter((name) => !checkedInTheirOwnSuites.has(name)).sort());
  });
});
