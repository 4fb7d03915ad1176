import type { SQSRecord } from 'aws-lambda';
import * as z from 'zod';
import type { Deps } from '../../infra/deps';
import { logger } from '../../infra/logger';
import { eachRecordAtOnce, type QueueConsumer } from '../../infra/queue/queue';
import { getSourceItem } from './source-repository';
import { syncStoredDocuments, type KnowledgeMessage } from './sync';
import { crawlPage, startWebsiteSync } from './website-sync';

const Message = z.discriminatedUnion('type', [
  z.object({ type: z.literal('sync'), workspaceId: z.string(), sourceId: z.string(), syncId: z.string() }),
  z.object({ type: z.literal('page'), workspaceId: z.string(), sourceId: z.string(), syncId: z.string(), urlKey: z.string() }),
]);

function parse(record: SQSRecord): KnowledgeMessage | undefined {
  try {
    return Message.parse(JSON.parse(record.body));
  } catch {
    logger.error('knowledge queue: dropping a malformed message', { messageId: record.messageId });
    return undefined;
  }
}

async function handle(deps: Deps, message: KnowledgeMessage): Promise<void> {
  const source = await getSourceItem(deps, message.workspaceId, message.sourceId);
  // A source deleted, or a sync replaced by a newer one: nothing left to do for this message.
  if (!source || source.syncId !== message.syncId || source.status !== 'indexing') return;
  if (source.type !== 'website') return syncStoredDocuments(deps, source, message.syncId);
  if (message.type === 'sync') return startWebsiteSync(deps, source, message.syncId);
  await crawlPage(deps, source, message);
}

/** The knowledge queue's consumer (an SQS event source mapping in AWS, the durable local queue locally): one page per message, retried. */
export function createKnowledgeConsumer(deps: Deps): QueueConsumer {
  return eachRecordAtOnce(
    async (record) => {
      const message = parse(record);
      if (message) await handle(deps, message);
    },
    (record, error) => logger.error('knowledge message failed; the queue will retry it', { messageId: record.messageId, error }),
  );
}
