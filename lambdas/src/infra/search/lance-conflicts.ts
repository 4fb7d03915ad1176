/**
 * LanceDB's answer when another writer committed first and the two cannot be merged (an index build or a compaction
 * against a compaction): the same work on the newer version may succeed. Appends and deletes it retries itself. The
 * words are LanceDB's own (lance's conflict resolver), matched as text: lance-conflicts.test.ts provokes a real
 * conflict with the pinned version, so an upgrade that rewords it fails there first.
 */
export const RETRYABLE_CONFLICT = 'Retryable commit conflict';
export const isRetryableConflict = (error: unknown) => error instanceof Error && error.message.includes(RETRYABLE_CONFLICT);
const CONFLICT_ATTEMPTS = 5;

/** `work` again (after a short random pause, so two writers do not collide again) while it loses to another writer's commit. */
export async function retryingConflicts<T>(work: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await work();
    } catch (error) {
      if (!isRetryableConflict(error) || attempt === CONFLICT_ATTEMPTS) throw error;
      await new Promise((resume) => setTimeout(resume, Math.random() * 50 * attempt));
    }
  }
}
