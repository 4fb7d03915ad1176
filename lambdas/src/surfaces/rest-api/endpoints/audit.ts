import { listAudit } from '../../../domains/audit/audit';
import type { EndpointHandlers } from './types';

export const auditEndpoints: EndpointHandlers<'auditList'> = {
  auditList: async ({ deps, workspace, query }) => {
    const { entries, nextCursor } = await listAudit(deps, workspace.id, query);
    return { data: { entries, next_cursor: nextCursor } };
  },
};
