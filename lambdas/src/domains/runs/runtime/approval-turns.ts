import type { ModelMessage, ToolApprovalRequestOutput, ToolSet } from 'ai';
import { APPROVAL_TTL_MS, type StoredPendingAction } from '../pending-action';
import { redactSecrets } from '../steps/redact';
import type { NewStep } from '../steps/step-log';
import type { AgentTool } from '../../skills/agent-tool';

/** What the AI SDK answers when a `needsApproval` tool was called: the loop stops there and asks. */
export type ApprovalRequest = ToolApprovalRequestOutput<ToolSet>;

/** Another action asked for in the same turn is answered no: a person approves one action at a time. */
const ONE_AT_A_TIME = 'Not performed: a person approves one action at a time. Ask again if it is still needed.';

/** The action a run asks a person for; `said` is the model's own sentence for it, when it wrote one. */
export function askedAction(request: ApprovalRequest, tools: AgentTool[], said: string, agentName: string, now: Date): StoredPendingAction {
  const { toolCallId, toolName, input } = request.toolCall;
  const tool = tools.find((candidate) => candidate.name === toolName);
  const capability = tool?.capability ?? toolName;
  return {
    approvalId: request.approvalId,
    toolCallId,
    toolName,
    capability,
    argumentsJson: JSON.stringify(redactSecrets(input ?? {})),
    reason: said || `${agentName} wants to use ${capability}${tool ? `: ${tool.description.split(/(?<=[.!?])\s/)[0]!.replace(/[.!?]?$/, '.')}` : '.'}`,
    requestedAt: now.toISOString(),
    expiresAt: new Date(now.getTime() + APPROVAL_TTL_MS).toISOString(),
  };
}

/** The calls the parked conversation's last turn asked approval for: its approval requests with their tool names. */
function askedCalls(history: ModelMessage[]): { approvalId: string; toolCallId: string; toolName: string }[] {
  const last = history.at(-1);
  if (last?.role !== 'assistant' || typeof last.content === 'string') return [];
  const names = new Map(last.content.flatMap((part) => (part.type === 'tool-call' ? [[part.toolCallId, part.toolName] as const] : [])));
  return last.content.flatMap((part) =>
    part.type === 'tool-approval-request' ? [{ approvalId: part.approvalId, toolCallId: part.toolCallId, toolName: names.get(part.toolCallId) ?? '' }] : [],
  );
}

const approved = (action: StoredPendingAction, approvalId: string) => action.decision === 'approved' && approvalId === action.approvalId;
const deniedReason = (action: StoredPendingAction, approvalId: string) =>
  approvalId !== action.approvalId ? ONE_AT_A_TIME : `Rejected by a person${action.note ? `: ${action.note}` : ''}. The action did not happen.`;

/** The person's answer as the AI SDK takes it: it runs an approved call (once), and tells the model of a rejected one. */
export function approvalAnswerMessage(history: ModelMessage[], action: StoredPendingAction): ModelMessage {
  return {
    role: 'tool',
    content: askedCalls(history).map(({ approvalId }) =>
      approved(action, approvalId)
        ? { type: 'tool-approval-response', approvalId, approved: true }
        : { type: 'tool-approval-response', approvalId, approved: false, reason: deniedReason(action, approvalId) },
    ),
  };
}

/** The same answer as the results the model saw, for the stored conversation and the shaping call. */
export function approvalResultMessage(history: ModelMessage[], action: StoredPendingAction, results: Map<string, unknown>): ModelMessage {
  return {
    role: 'tool',
    content: askedCalls(history).map(({ approvalId, toolCallId, toolName }) => ({
      type: 'tool-result',
      toolCallId,
      toolName,
      output: approved(action, approvalId)
        ? { type: 'json', value: (results.get(toolCallId) ?? null) as never }
        : { type: 'execution-denied', reason: deniedReason(action, approvalId) },
    })),
  };
}

export const answeredStep = (action: StoredPendingAction): NewStep => ({
  type: 'approval_answered',
  at: action.answeredAt ?? action.requestedAt,
  approval_id: action.approvalId,
  decision: action.decision ?? 'rejected',
  answered_by: action.answeredBy ?? 'unknown',
  note: action.note ?? null,
});
