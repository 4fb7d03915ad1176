import { z } from 'zod';
import { createRecord } from '../../domain/records';
import type { AgentTool } from '../../runtime/agent-tool';

/**
 * Sends from the agent's own address. The transport is the workspace outbox (records of kind `email`, readable
 * with GET email/outbox); a production deployment would hand the same message to its mail service.
 */
export const emailTools: AgentTool[] = [
  {
    name: 'email__send',
    capability: 'email.send',
    description: "Send an e-mail from the agent's own address to a recipient, with a subject and a body",
    effect: 'act',
    input: z.object({
      to: z.email().describe('Recipient address'),
      subject: z.string().min(1).max(200),
      body: z.string().max(20_000).optional(),
    }),
    execute: async (input, { deps, workspaceId, agent, runId }) => {
      const message = await createRecord(deps, workspaceId, 'email', {
        from: agent.email,
        to: String(input.to),
        subject: String(input.subject),
        body: (input.body as string | undefined) ?? '',
        run_id: runId,
        agent_id: agent.id,
      });
      return { status: 'sent', message_id: message.id, from: agent.email, to: message.to };
    },
  },
];
