import { schemas } from '@service/shared';
import type { z } from 'zod';
import type { NewStep } from './steps/step-log';

/** The action a parked run waits for (see approvals.ts), kept on the run item: the one approval record of every door. */
export interface StoredPendingAction {
  /** The AI SDK's id of the approval request, answered in the resumed conversation. */
  approvalId: string;
  toolCallId: string;
  toolName: string;
  capability: string;
  /** The arguments as shown to people, secrets redacted (the real ones stay in the stored conversation). */
  argumentsJson: string;
  reason: string;
  requestedAt: string;
  expiresAt: string;
  decision?: 'approved' | 'rejected';
  answeredBy?: string;
  answeredAt?: string;
  note?: string;
}

export const APPROVAL_TTL_MS = schemas.APPROVAL_TTL_HOURS * 3_600_000;

export function toPendingActionResponse(action: StoredPendingAction): z.input<typeof schemas.PendingAction> {
  return {
    approval_id: action.approvalId,
    capability: action.capability,
    arguments: JSON.parse(action.argumentsJson) as Record<string, unknown>,
    reason: action.reason,
    requested_at: action.requestedAt,
    expires_at: action.expiresAt,
  };
}

/** The two steps a run waiting for `action` ends its timeline with, until a person answers. */
export const waitingSteps = (action: StoredPendingAction): NewStep[] => [
  { type: 'approval_requested', at: action.requestedAt, ...toPendingActionResponse(action) },
  { type: 'status', status: 'requires_action', at: action.requestedAt },
];
