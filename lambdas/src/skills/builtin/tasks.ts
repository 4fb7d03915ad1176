import { z } from 'zod';
import { createRecord, listRecords } from '../../domain/records';
import type { AgentTool } from '../../runtime/agent-tool';

export const taskTools: AgentTool[] = [
  {
    name: 'tasks__create',
    capability: 'tasks.create',
    description: 'Create a task (a to-do) with a title and an optional due date',
    effect: 'act',
    input: z.object({
      title: z.string().min(1).max(200),
      due_at: z.iso.datetime({ offset: true }).optional(),
      description: z.string().max(4000).optional(),
    }),
    execute: async (input, { deps, workspaceId, agent }) =>
      createRecord(deps, workspaceId, 'task', {
        title: String(input.title),
        description: (input.description as string | undefined) ?? null,
        due_at: (input.due_at as string | undefined) ?? null,
        agent_id: agent.id,
        status: 'open' as const,
      }),
  },
  {
    name: 'tasks__list',
    capability: 'tasks.list',
    description: 'List the open tasks of the workspace',
    effect: 'read',
    input: z.object({}),
    execute: async (_input, { deps, workspaceId }) => ({ tasks: (await listRecords(deps, workspaceId, 'task', { limit: 50 })).items }),
  },
];
