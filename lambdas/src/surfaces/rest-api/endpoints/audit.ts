import { auditRetentionDays, listAudit, setAuditRetention } from '../../../domains/audit/audit';
import type { EndpointHandlers } from './types';

export const auditEndpoints: EndpointHandlers<'auditList' | 'auditRetentionGet' | 'auditRetentionSet'> = {
  auditList: async ({ deps, workspace, query }) => {
    const { entries, nextCursor } = await listAudit(deps, workspace.id, query);
    return { data: { entries, next_cursor: nextCursor } };
  },
  auditRetentionGet: async ({ deps, workspace }) => ({ data: { retention: { days: await auditRetentionDays(deps, workspace.id) } } }),
  auditRetentionSet: async ({ deps, workspace, body }) => ({
    data: { retention: { days: await setAuditRetention(deps, workspace.id, body.days) } },
    msg: `Audit entries recorded from now on are kept ${body.days} days`,
  }),
};
