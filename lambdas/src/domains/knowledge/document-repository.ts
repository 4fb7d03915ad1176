import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { Deps } from '../../infra/deps';
import { deleteIf, putIf, queryAll, readItem, updateIf } from '../../infra/store/dynamo';

/** The knowledge domain's document repository: every store call of the knowledgeDocuments table. */
export interface StoredDocument {
  sourceId: string;
  id: string;
  workspaceId: string;
  name: string;
  url?: string;
  title: string;
  contentType: string;
  status: 'indexed' | 'failed';
  error?: string;
  /** SHA-256 of the extracted text: a document whose text did not change is not indexed again. */
  contentHash?: string;
  etag?: string;
  lastModified?: string;
  chunks: number;
  bytes: number;
  /** The sync of its website that saw it last: pages no sync saw are removed when it ends. */
  seenSyncId?: string;
  /** When its text was last indexed. */
  updatedAt: string;
}

const table = (deps: Deps) => deps.store.table('knowledgeDocuments');

export const getDocumentItem = (deps: Deps, sourceId: string, id: string) => readItem<StoredDocument>(deps.store, table(deps), { sourceId, id });

/** Stores the document as given (a newer version replaces the old one: the index already holds its rows). */
export const putDocumentItem = (deps: Deps, document: StoredDocument) => putIf(deps.store, table(deps), document, {});

/** What a sync that saw a page without indexing it again records: its id, the validators served, and why the fetch failed if it did. */
export interface SeenPage {
  seenSyncId: string;
  etag?: string;
  lastModified?: string;
  /** The page could not be fetched this time (its earlier text is kept); none clears an earlier one. */
  error?: string;
}

/** Marks the page seen by a sync: the document after it, or undefined when it is gone. */
export function markDocumentSeen(deps: Deps, document: Pick<StoredDocument, 'sourceId' | 'id'>, seen: SeenPage) {
  const names = Object.keys(seen);
  return updateIf<StoredDocument>(
    deps.store,
    table(deps),
    { sourceId: document.sourceId, id: document.id },
    {
      UpdateExpression: `SET ${names.map((name) => `#${name} = :${name}`).join(', ')}${seen.error === undefined ? ' REMOVE #error' : ''}`,
      ConditionExpression: 'attribute_exists(id)',
      ExpressionAttributeNames: Object.fromEntries([...names, 'error'].map((name) => [`#${name}`, name])),
      ExpressionAttributeValues: Object.fromEntries(Object.entries(seen).map(([name, value]) => [`:${name}`, value])),
    },
  );
}

export const deleteDocumentItem = (deps: Deps, document: Pick<StoredDocument, 'sourceId' | 'id'>) =>
  deleteIf<StoredDocument>(deps.store, table(deps), { sourceId: document.sourceId, id: document.id }, { ConditionExpression: 'attribute_exists(id)' });

export const allDocuments = (deps: Deps, sourceId: string) =>
  queryAll<StoredDocument>(deps.store, {
    TableName: table(deps),
    KeyConditionExpression: 'sourceId = :s',
    ExpressionAttributeValues: { ':s': sourceId },
    ConsistentRead: true,
  });

/** One page of a source's documents by id, from `startId` on; the id to continue after, if any. */
export async function documentPage(deps: Deps, sourceId: string, limit: number, startId?: string) {
  const result = await deps.store.doc.send(
    new QueryCommand({
      TableName: table(deps),
      KeyConditionExpression: 'sourceId = :s',
      ExpressionAttributeValues: { ':s': sourceId },
      Limit: limit,
      ...(startId ? { ExclusiveStartKey: { sourceId, id: startId } } : {}),
    }),
  );
  return { documents: (result.Items ?? []) as StoredDocument[], lastId: result.LastEvaluatedKey?.id as string | undefined };
}
