import { answerApproval, listWaitingRuns } from '../../../domains/runs/approvals';
import { toPendingActionResponse } from '../../../domains/runs/pending-action';
import { toRunResponse } from '../../../domains/runs/runs';
import type { EndpointHandlers } from './types';

type ApprovalEndpoints = 'agentsCommandApprove' | 'agentsCommandReject' | 'agentsApprovals';

/** The REST door to a run's approval: the same record the dashboard and MCP answer (domains/runs/approvals.ts). */
export const runApprovalEndpoints: EndpointHandlers<ApprovalEndpoints> = {
  agentsCommandApprove: async ({ deps, workspace, body, session }) => ({
    data: toRunResponse(
      await answerApproval(deps, workspace.id, body.run_id, {
        decision: 'approved',
        by: session ? session.userId : 'api_key',
        ...(body.note ? { note: body.note } : {}),
      }),
    ),
    msg: 'Approved: the action runs once and the run goes on',
  }),

  agentsCommandReject: async ({ deps, workspace, body, session }) => ({
    data: toRunResponse(
      await answerApproval(deps, workspace.id, body.run_id, {
        decision: 'rejected',
        by: session ? session.userId : 'api_key',
        ...(body.note ? { note: body.note } : {}),
      }),
    ),
    msg: 'Rejected: the agent is told and carries on without the action',
  }),

  agentsApprovals: async ({ deps, workspace, query }) => ({
    data: {
      runs: (await listWaitingRuns(deps, { workspaceId: workspace.id, ...(query.agent_id ? { agentId: query.agent_id } : {}) }, query.limit)).map((run) => ({
        run_id: run.runId,
        agent_id: run.agentId,
        instruction: run.instruction,
        created_at: run.createdAt,
        pending_action: toPendingActionResponse(run.pendingAction!),
      })),
    },
  }),
};
