import { defineSkill, serviceApi, z } from '@service/skill-sdk';

export const tasksSkill = defineSkill({
  code: 'tasks',
  version: '1.0.0',
  defaultLocale: 'en',
  locales: {
    en: { created: 'Task {title} created', listed: '{count} open tasks' },
    tr: { created: '{title} görevi oluşturuldu', listed: '{count} açık görev' },
  },
  tools: {
    create: {
      description: 'Create a task (a to-do) with a title and an optional due date',
      input: {
        title: z.string().min(1).max(200),
        due_at: z.iso.datetime({ offset: true }).optional(),
        description: z.string().max(4000).optional(),
      },
      annotations: { readOnlyHint: false, destructiveHint: false },
      handler: async (input, ctx) => {
        const task = await serviceApi<{ title: string }>(ctx, 'skills/tasks/create', input);
        return { task, message: ctx.t('created', { title: task.title }) };
      },
    },
    list: {
      description: 'List the open tasks of the workspace',
      annotations: { readOnlyHint: true },
      handler: async (_input, ctx) => {
        const { tasks } = await serviceApi<{ tasks: unknown[] }>(ctx, 'skills/tasks/list');
        return { tasks, message: ctx.t('listed', { count: tasks.length }) };
      },
    },
  },
});
