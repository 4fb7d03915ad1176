import type { IndexRow } from './knowledge-index';

/** One document's new rows (none: it leaves the index), waiting to be written with others. */
export interface PendingReplace {
  documentId: string;
  rows: IndexRow[];
  done: { resolve: () => void; reject: (error: unknown) => void };
}

/**
 * One workspace's writes, one batch at a time: the documents replaced while a batch is written go together into the
 * next one (one delete, one append, one commit each), so concurrent uploads and crawled pages make few table versions.
 */
export class WriteBatcher {
  private readonly pending = new Map<string, PendingReplace[]>();
  private readonly running = new Map<string, Promise<void>>();

  constructor(private readonly write: (workspaceId: string, batch: PendingReplace[]) => Promise<void>) {}

  replace(workspaceId: string, documentId: string, rows: IndexRow[]): Promise<void> {
    return new Promise((resolve, reject) => {
      const queue = this.pending.get(workspaceId) ?? [];
      queue.push({ documentId, rows, done: { resolve, reject } });
      this.pending.set(workspaceId, queue);
      if (!this.running.has(workspaceId)) this.running.set(workspaceId, this.drain(workspaceId));
    });
  }

  /** Runs `work` between batches of the workspace (a source's deletion, an optimize). */
  async exclusive<T>(workspaceId: string, work: () => Promise<T>): Promise<T> {
    while (this.running.has(workspaceId)) await this.running.get(workspaceId);
    const run = work();
    this.running.set(
      workspaceId,
      run.then(
        () => undefined,
        () => undefined,
      ),
    );
    try {
      return await run;
    } finally {
      this.running.delete(workspaceId);
      if (this.pending.get(workspaceId)?.length) this.running.set(workspaceId, this.drain(workspaceId));
    }
  }

  private async drain(workspaceId: string): Promise<void> {
    for (let batch = this.take(workspaceId); batch.length > 0; batch = this.take(workspaceId)) {
      try {
        await this.write(workspaceId, batch);
        for (const item of batch) item.done.resolve();
      } catch (error) {
        for (const item of batch) item.done.reject(error);
      }
    }
    this.running.delete(workspaceId);
  }

  private take(workspaceId: string): PendingReplace[] {
    const batch = this.pending.get(workspaceId) ?? [];
    this.pending.delete(workspaceId);
    return batch;
  }
}
