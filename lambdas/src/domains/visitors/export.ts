import type { Deps } from '../../infra/deps';
import { exportConversations, visitorConversations, type ExportedConversation, type VisitorKey } from '../conversations/visitor-conversations';
import type { VisitorExportSections } from './owners';
import { findVisitorData } from './visitor-data';

/** Everything stored about a visitor (visitors/export), each conversation with its whole transcript. */
export interface VisitorExportData extends VisitorExportSections {
  conversations: ExportedConversation[];
}

export async function exportVisitor(deps: Deps, workspaceId: string, who: VisitorKey): Promise<VisitorExportData> {
  const found = await findVisitorData(deps, workspaceId, await visitorConversations(deps, workspaceId, who));
  return {
    conversations: exportConversations(found.conversations),
    contacts: found.held.flatMap((held) => held.exported?.contacts ?? []),
    deliveries: found.held.flatMap((held) => held.exported?.deliveries ?? []),
  };
}
