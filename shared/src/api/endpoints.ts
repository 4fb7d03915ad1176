import * as z from 'zod';
import * as a from './agents';
import * as steps from './run-steps';
import * as r from './records';
import { UsageQuery, UsageReport } from './usage';
import { Billing } from './billing';
import { WebhookCreateBody, WebhookIdBody, WebhookSubscription } from './webhook-subscriptions';
import { ApiKey, KeyCreateBody, KeyIdBody } from './api-keys';
import { AUTH_ENDPOINTS } from './auth';
import { PEOPLE_ENDPOINTS } from './people';
import { CONVERSATION_ENDPOINTS } from './conversations';
import { MAIL_MESSAGE_ENDPOINTS } from './mail-messages';
import { WEBHOOK_DELIVERY_ENDPOINTS } from './webhook-deliveries';
import { SKILL_ACCESS_ENDPOINTS, Skill, SkillInstallBody, SkillInstallation } from './skills';
import { CONNECTION_ENDPOINTS } from './connections';
import { KNOWLEDGE_ENDPOINTS } from './knowledge';
import { VISITOR_ENDPOINTS } from './visitors';
import { TELEMETRY_ENDPOINTS } from './telemetry';
import { DRAFT_ENDPOINTS, EVAL_ENDPOINTS } from './evals';
import { INSIGHTS_ENDPOINTS } from './insights';
import { AUDIT_ENDPOINTS } from './audit';
import type { EndpointContract } from './contract';
import { secretAlreadyShown, secretShownOnce } from './primitives';

export type { EndpointContract, HttpMethod } from './contract';

const contract = <const T extends EndpointContract>(endpoint: T): T => endpoint;

export const ENDPOINTS = {
  agentsList: contract({
    path: 'agents/list',
    method: 'GET',
    summary: 'List the agents of the workspace',
    data: z.object({ agents: z.array(a.Agent) }),
    status: 200,
    access: 'read',
  }),
  agentsGet: contract({
    path: 'agents/get',
    method: 'GET',
    summary: 'Fetch one agent',
    query: a.AgentIdQuery,
    data: z.object({ agent: a.Agent }),
    status: 200,
    access: 'read',
  }),
  agentsCreate: contract({
    path: 'agents/create',
    method: 'POST',
    summary: 'Hire an agent from a preset',
    body: a.CreateAgentBody,
    data: z.object({ agent: a.Agent }),
    status: 201,
    idempotent: true,
    access: 'manage',
  }),
  agentsPresets: contract({
    path: 'agents/presets',
    method: 'GET',
    summary: 'The preset catalog agents are hired from',
    data: z.object({
      presets: z.array(z.object({ id: z.string(), name: z.string(), role: z.string(), description: z.string(), skills: z.array(z.string()) })),
    }),
    status: 200,
    access: 'read',
  }),
  agentsCommand: contract({
    path: 'agents/command',
    method: 'POST',
    summary: 'Give an agent a natural-language command (runs asynchronously)',
    body: a.CommandBody,
    data: a.CommandAccepted,
    status: 202,
    idempotent: true,
    access: 'command',
  }),
  agentsCommandStatus: contract({
    path: 'agents/command_status',
    method: 'GET',
    summary: 'Poll a run, with its steps (paged)',
    query: steps.RunStatusQuery,
    data: steps.RunWithSteps,
    status: 200,
    access: 'read',
  }),
  agentsCommandStream: contract({
    path: 'agents/command_stream',
    method: 'GET',
    summary: 'Watch a run live: its steps as Server-Sent Events, resumable with Last-Event-ID',
    query: steps.RunStreamQuery,
    data: a.Run,
    status: 200,
    access: 'read',
    stream: { description: steps.RUN_STREAM_DESCRIPTION, events: steps.RUN_STREAM_EVENTS },
  }),
  agentsCommandCancel: contract({
    path: 'agents/command_cancel',
    method: 'POST',
    summary:
      'Stop a run: a queued run never starts; a running one starts no further model turn or tool call and ends `cancelled` with what it produced so far (409 RUN_NOT_CANCELLABLE once it completed or failed)',
    body: a.CancelBody,
    data: a.Run,
    status: 200,
    access: 'command',
  }),
  agentsCommandApprove: contract({
    path: 'agents/command_approve',
    method: 'POST',
    summary:
      'Approve the action a `requires_action` run waits for: it runs once, and the run goes on (first answer from any door wins; 409 APPROVAL_NOT_PENDING or APPROVAL_EXPIRED otherwise)',
    body: a.ApprovalBody,
    data: a.Run,
    status: 200,
    idempotent: true,
    access: 'command',
  }),
  agentsCommandReject: contract({
    path: 'agents/command_reject',
    method: 'POST',
    summary: 'Reject the action a `requires_action` run waits for: the agent is told (with the note) and carries on without it',
    body: a.ApprovalBody,
    data: a.Run,
    status: 200,
    idempotent: true,
    access: 'command',
  }),
  agentsApprovals: contract({
    path: 'agents/approvals',
    method: 'GET',
    summary: 'Runs of the workspace waiting for a person to approve an action ("Waiting for you"), oldest first',
    query: a.ApprovalsQuery,
    data: z.object({ runs: z.array(a.WaitingRun) }),
    status: 200,
    access: 'read',
  }),
  agentsIdentitySecret: contract({
    path: 'agents/identity_secret',
    method: 'POST',
    summary: "Issue a new identity secret for the agent's widget visitors (the previous one stops verifying); shown once",
    body: a.AgentIdBody,
    data: z.object({
      agent_id: z.uuid(),
      identity_secret: z.string().meta({ description: 'Shown once: sign user ids with it on your server, hex HMAC-SHA256' }),
    }),
    status: 200,
    access: 'manage',
  }),
  agentsUpdate: contract({
    path: 'agents/update',
    method: 'POST',
    summary: "Change an agent's settings (what the widget shows, its timings and allowed origins)",
    body: a.AgentUpdateBody,
    data: z.object({ agent: a.Agent }),
    status: 200,
    access: 'manage',
  }),
  agentsRuns: contract({
    path: 'agents/runs',
    method: 'GET',
    summary: 'Recent runs of an agent, newest first',
    query: a.RunsQuery,
    data: z.object({ runs: z.array(a.Run) }),
    status: 200,
    access: 'read',
  }),
  skillsList: contract({
    path: 'skills/list',
    method: 'GET',
    summary: 'The skill catalog',
    data: z.object({ skills: z.array(Skill) }),
    status: 200,
    access: 'read',
  }),
  skillsInstall: contract({
    path: 'skills/install',
    method: 'POST',
    summary: 'Install a skill on an agent',
    body: SkillInstallBody,
    data: SkillInstallation,
    status: 200,
    access: 'manage',
  }),
  skillsUninstall: contract({
    path: 'skills/uninstall',
    method: 'POST',
    summary: 'Remove a skill from an agent',
    body: SkillInstallBody,
    data: SkillInstallation,
    status: 200,
    access: 'manage',
  }),
  ...SKILL_ACCESS_ENDPOINTS,
  contactsCreate: contract({
    path: 'contacts/create',
    method: 'POST',
    summary: 'Create a contact',
    body: r.CreateContactBody,
    data: z.object({ contact: r.Contact }),
    status: 201,
    idempotent: true,
    access: 'command',
  }),
  contactsList: contract({
    path: 'contacts/list',
    method: 'GET',
    summary: 'List contacts, newest first',
    query: r.ListQuery,
    data: z.object({ contacts: z.array(r.Contact), ...r.Page }),
    status: 200,
    access: 'read',
  }),
  calendarEventCreate: contract({
    path: 'calendar/event_create',
    method: 'POST',
    summary: 'Create a calendar event',
    body: r.CreateEventBody,
    data: z.object({ event: r.CalendarEvent }),
    status: 201,
    idempotent: true,
    access: 'command',
  }),
  calendarEventList: contract({
    path: 'calendar/event_list',
    method: 'GET',
    summary: 'List calendar events, newest first',
    query: r.ListQuery,
    data: z.object({ events: z.array(r.CalendarEvent), ...r.Page }),
    status: 200,
    access: 'read',
  }),
  tasksCreate: contract({
    path: 'tasks/create',
    method: 'POST',
    summary: 'Create a task',
    body: r.CreateTaskBody,
    data: z.object({ task: r.Task }),
    status: 201,
    idempotent: true,
    access: 'command',
  }),
  tasksList: contract({
    path: 'tasks/list',
    method: 'GET',
    summary: 'List tasks, newest first',
    query: r.ListQuery,
    data: z.object({ tasks: z.array(r.Task), ...r.Page }),
    status: 200,
    access: 'read',
  }),
  emailOutbox: contract({
    path: 'email/outbox',
    method: 'GET',
    summary: "E-mail the agents sent from their own addresses (the local platform's outbox)",
    query: r.ListQuery,
    data: z.object({ emails: z.array(r.OutboxEmail), ...r.Page }),
    status: 200,
    access: 'read',
  }),
  usageTokens: contract({
    path: 'usage/tokens',
    method: 'GET',
    summary: 'Token usage per day and per agent',
    query: UsageQuery,
    data: UsageReport,
    status: 200,
    access: 'read',
  }),
  billingGet: contract({ path: 'billing/get', method: 'GET', summary: 'Plan, token allowance and use this month', data: Billing, status: 200, access: 'read' }),
  webhooksCreate: contract({
    path: 'webhooks/create',
    method: 'POST',
    summary: 'Subscribe an https URL to events; the signing secret is returned once, also in its Standard Webhooks form',
    body: WebhookCreateBody,
    data: z.object({
      subscription: WebhookSubscription,
      signing_secret: secretShownOnce,
      standard_webhooks_secret: secretShownOnce.meta({
        description:
          'The same key in the Standard Webhooks form (whsec_ + base64 of the UTF-8 bytes of signing_secret), for the standardwebhooks libraries and gateways; shown once, null on an idempotent replay',
      }),
      secret_already_shown: secretAlreadyShown,
    }),
    status: 201,
    idempotent: true,
    secretFields: ['signing_secret', 'standard_webhooks_secret'],
    access: 'manage',
  }),
  webhooksList: contract({
    path: 'webhooks/list',
    method: 'GET',
    summary: 'List subscriptions with their state',
    data: z.object({ subscriptions: z.array(WebhookSubscription) }),
    status: 200,
    access: 'read',
  }),
  webhooksDelete: contract({
    path: 'webhooks/delete',
    method: 'POST',
    summary: 'Delete a subscription',
    body: WebhookIdBody,
    data: z.object({ deleted: z.literal(true), webhook_id: z.string() }),
    status: 200,
    access: 'manage',
  }),
  ...WEBHOOK_DELIVERY_ENDPOINTS,
  ...CONNECTION_ENDPOINTS,
  keysCreate: contract({
    path: 'keys/create',
    method: 'POST',
    summary: 'Create an API key; the key is returned once',
    body: KeyCreateBody,
    data: z.object({ key: ApiKey, secret: secretShownOnce, secret_already_shown: secretAlreadyShown }),
    status: 201,
    idempotent: true,
    secretFields: ['secret'],
    access: 'manage',
  }),
  keysList: contract({
    path: 'keys/list',
    method: 'GET',
    summary: 'List API keys (never the keys themselves)',
    data: z.object({ keys: z.array(ApiKey) }),
    status: 200,
    access: 'read',
  }),
  keysRevoke: contract({
    path: 'keys/revoke',
    method: 'POST',
    summary: 'Revoke an API key at once',
    body: KeyIdBody,
    data: z.object({ key: ApiKey }),
    status: 200,
    access: 'manage',
  }),
  ...AUTH_ENDPOINTS,
  ...PEOPLE_ENDPOINTS,
  ...CONVERSATION_ENDPOINTS,
  ...MAIL_MESSAGE_ENDPOINTS,
  ...KNOWLEDGE_ENDPOINTS,
  ...VISITOR_ENDPOINTS,
  ...TELEMETRY_ENDPOINTS,
  ...DRAFT_ENDPOINTS,
  ...EVAL_ENDPOINTS,
  ...INSIGHTS_ENDPOINTS,
  ...AUDIT_ENDPOINTS,
} as const satisfies Record<string, EndpointContract>;

export type EndpointName = keyof typeof ENDPOINTS;
export type QueryOf<N extends EndpointName> = (typeof ENDPOINTS)[N] extends { query: infer Q extends z.ZodType } ? z.output<Q> : undefined;
export type BodyOf<N extends EndpointName> = (typeof ENDPOINTS)[N] extends { body: infer B extends z.ZodType } ? z.output<B> : undefined;
export type DataOf<N extends EndpointName> = z.input<(typeof ENDPOINTS)[N]['data']>;

export const SUPPORTED_LANGUAGES = ['en', 'tr'] as const;
export const API_VERSION = 'v1';
