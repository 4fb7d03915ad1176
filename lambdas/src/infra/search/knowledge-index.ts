import type { IndexLanguage } from './language';

/** One row of the index: a document's parent (its whole text) or one of its passages (a section). */
export interface IndexRow {
  /** `<document id>#<ordinal>` for a passage, `<document id>#doc` for the parent. */
  rowId: string;
  documentId: string;
  sourceId: string;
  kind: 'parent' | 'passage';
  language: IndexLanguage;
  /** What full-text search reads: the title, the heading path and the passage (or the whole document). */
  searchText: string;
  /** What a hit shows: the passage itself (a parent shows its first passage). */
  name: string;
  url: string | null;
  title: string;
  text: string;
  /** Set when the platform has an embedding model (passages only). */
  vector?: number[];
}

/** A passage found, with the score of its document in the fused ranking (1 = first in every ranking). */
export interface IndexHit {
  documentId: string;
  sourceId: string;
  name: string;
  url: string | null;
  title: string;
  text: string;
  score: number;
}

export interface IndexQuery {
  text: string;
  /** Embedding of `text`, when the platform has an embedding model. */
  vector?: number[];
  /** The question's language, where the caller has told it (else the index tells it from `text`). */
  language?: IndexLanguage;
  /** Only these sources (what an agent may search); undefined = every source of the workspace. */
  sourceIds?: string[];
  limit: number;
}

/**
 * The knowledge index: one table per workspace (so one workspace's search can never read another's rows), full-text
 * search per language, and vector search where rows carry embeddings, fused by reciprocal rank fusion.
 */
export interface KnowledgeIndex {
  /** Replaces every row of the document by `rows` (none: the document leaves the index). */
  replaceDocument(workspaceId: string, documentId: string, rows: IndexRow[]): Promise<void>;
  /** Removes every row of the source. */
  deleteSource(workspaceId: string, sourceId: string): Promise<void>;
  search(workspaceId: string, query: IndexQuery): Promise<IndexHit[]>;
  /** How many rows match (tests and the bench: nothing of a deleted source is left, nothing is duplicated). */
  countRows(workspaceId: string, filter?: { sourceId?: string; documentId?: string }): Promise<number>;
  /** Folds recent writes into the indexes and compacts the table (done by itself after enough writes). */
  optimize(workspaceId: string): Promise<void>;
  close(): void;
}
