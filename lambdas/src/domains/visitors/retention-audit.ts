import type { Deps } from '../../infra/deps';
import { recordAudit } from '../audit/audit';
import type { ErasureItem } from './erasure-repository';

/**
 * A retention erasure (the platform's own change: the workspace's retention setting erased old conversations) in the
 * workspace's audit log. Seeded by the erasure's id and start: the sweeper also records an erasure it resumed after a
 * crash, and the same erasure is one entry however often it is recorded.
 */
export const recordRetentionErasure = (deps: Deps, erasure: ErasureItem) =>
  erasure.reason !== 'retention'
    ? Promise.resolve()
    : recordAudit(deps, {
        workspaceId: erasure.workspaceId,
        actor: { type: 'platform', id: null, name: 'retention' },
        action: 'visitor.erased',
        target: { type: 'conversations', id: null, name: 'conversations past the retention' },
        after: { erasure_id: erasure.id, reason: erasure.reason, state: erasure.state, removed: erasure.removed ?? null },
        seed: erasure.id,
        at: new Date(erasure.startedAt),
      }).then(() => undefined);
