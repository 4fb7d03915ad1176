import type { Deps } from '../../infra/deps';
import { exportConversations, type ExportedConversation } from '../conversations/visitor-conversations';
import type { VisitorExportSections } from './owners';
import { findVisitorData, targetConversations, type VisitorTarget } from './visitor-data';

/** Everything stored about a visitor (visitors/export), each conversation with its whole transcript. */
export interface VisitorExportData extends VisitorExportSections {
  conversations: ExportedConversation[];
}

export async function exportVisitor(deps: Deps, workspaceId: string, who: VisitorTarget): Promise<VisitorExportData> {
  const found = await findVisitorData(deps, workspaceId, await targetConversations(deps, workspaceId, who), 'email' in who ? who.email : undefined);
  return {
    conversations: exportConversations(found.conversations),
    contacts: found.held.flatMap((held) => held.exported?.contacts ?? []),
    deliveries: found.held.flatMap((held) => held.exported?.deliveries ?? []),
    mails: found.held.flatMap((held) => held.exported?.mails ?? []),
  };
}
