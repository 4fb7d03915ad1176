import { newUuid, type KnowledgeEndpoint } from '@service/shared';
import { deleteSource } from '../../../domains/knowledge/delete-source';
import { createAnswer, createUploadUrl, deleteDocument, listDocuments, toApiDocument, uploadDocument } from '../../../domains/knowledge/documents';
import { searchKnowledge } from '../../../domains/knowledge/search';
import { createSource, listSources, requireSource, toApiSource, updateSource } from '../../../domains/knowledge/sources';
import { requestSync } from '../../../domains/knowledge/sync';
import { dismissUnanswered, listUnanswered } from '../../../domains/knowledge/unanswered';
import type { EndpointHandlers } from './types';

export const knowledgeEndpoints: EndpointHandlers<KnowledgeEndpoint> = {
  knowledgeSourceCreate: async ({ deps, workspace, body, action }) => {
    const { source, created } = await createSource(deps, workspace.id, body, action);
    // A website's first sync starts at once; a retried create finds it started (or starts what a crash left queued).
    const answered =
      source.type === 'website' && (created || source.status === 'queued')
        ? await requestSync(deps, workspace.id, source.id, action.seed ? newUuid(action.seed) : undefined)
        : source;
    return { data: { source: toApiSource(answered) }, msg: `Source ${source.name} added` };
  },
  knowledgeSourceList: async ({ deps, workspace }) => ({ data: { sources: (await listSources(deps, workspace.id)).map(toApiSource) } }),
  knowledgeSourceGet: async ({ deps, workspace, query }) => ({ data: { source: toApiSource(await requireSource(deps, workspace.id, query.source_id)) } }),
  knowledgeSourceUpdate: async ({ deps, workspace, body }) => ({
    data: { source: toApiSource(await updateSource(deps, workspace.id, body)) },
    msg: 'Source updated',
  }),
  knowledgeSourceSync: async ({ deps, workspace, body }) => ({
    data: { source: toApiSource(await requestSync(deps, workspace.id, body.source_id)) },
    msg: 'Sync started',
  }),
  knowledgeSourceDelete: async ({ deps, workspace, body }) => {
    await deleteSource(deps, workspace.id, body.source_id);
    return { data: { deleted: true as const, source_id: body.source_id }, msg: 'Source deleted with its documents, files and index entries' };
  },
  knowledgeDocumentUpload: async ({ deps, workspace, body }) => ({
    data: { document: toApiDocument(await uploadDocument(deps, workspace.id, body)) },
    msg: `${body.name} indexed`,
  }),
  knowledgeDocumentUploadUrl: async ({ deps, workspace, body }) => ({
    data: await createUploadUrl(deps, workspace.id, body),
    msg: 'PUT the file to the url, then call knowledge/document_upload with the upload_id',
  }),
  knowledgeDocumentList: async ({ deps, workspace, query }) => ({ data: await listDocuments(deps, workspace.id, query) }),
  knowledgeDocumentDelete: async ({ deps, workspace, body }) => {
    await deleteDocument(deps, workspace.id, body.document_id, await listSources(deps, workspace.id));
    return { data: { deleted: true as const, document_id: body.document_id }, msg: 'Document deleted' };
  },
  knowledgeAnswerCreate: async ({ deps, workspace, body, action }) => ({
    data: { document: toApiDocument(await createAnswer(deps, workspace.id, body, action)) },
    msg: 'Answer saved',
  }),
  knowledgeSearch: async ({ deps, workspace, body }) => {
    const results = await searchKnowledge(deps, {
      workspaceId: workspace.id,
      query: body.query,
      ...(body.agent_id ? { agentId: body.agent_id } : {}),
      ...(body.limit ? { limit: body.limit } : {}),
    });
    return { data: { results } };
  },
  knowledgeUnansweredList: async ({ deps, workspace, query }) => ({ data: { questions: await listUnanswered(deps, workspace.id, query) } }),
  knowledgeUnansweredDismiss: async ({ deps, workspace, body }) => {
    await dismissUnanswered(deps, workspace.id, body.question_id);
    return { data: { dismissed: true as const, question_id: body.question_id }, msg: 'Question dismissed' };
  },
};
