import { BatchGetCommand } from '@aws-sdk/lib-dynamodb';
import type { Deps } from '../../infra/deps';
import { readItem, updateIf } from '../../infra/store/dynamo';

/**
 * Teammates' read markers (issue 29): one item per teammate and conversation in the conversation's partition
 * (`read#<userId>`), the last transcript position the inbox showed them. A marker only moves forward.
 */
const table = (deps: Deps) => deps.store.table('conversations');
export const readMarkerKey = (conversationId: string, userId: string) => ({ conversationId, sk: `read#${userId}` });

/** Moves the teammate's marker to `seq` unless it is there or further already; the marker as it now is. */
export async function advanceReadMarker(deps: Deps, conversationId: string, userId: string, seq: number, expiresAtEpoch: number | undefined): Promise<number> {
  const moved = await updateIf<{ seq: number }>(deps.store, table(deps), readMarkerKey(conversationId, userId), {
    // It goes with its conversation: the workspace's retention, or none while the workspace keeps conversations.
    UpdateExpression: expiresAtEpoch === undefined ? 'SET seq = :seq REMOVE expiresAtEpoch' : 'SET seq = :seq, expiresAtEpoch = :expires',
    ConditionExpression: 'attribute_not_exists(seq) OR seq < :seq',
    ExpressionAttributeValues: { ':seq': seq, ...(expiresAtEpoch === undefined ? {} : { ':expires': expiresAtEpoch }) },
  });
  return moved?.seq ?? (await readMarker(deps, conversationId, userId));
}

/** The teammate's marker on the conversation (0: never read). */
export const readMarker = async (deps: Deps, conversationId: string, userId: string): Promise<number> =>
  Number((await readItem<{ seq: number }>(deps.store, table(deps), readMarkerKey(conversationId, userId)))?.seq ?? 0);

/** The teammate's markers on the given conversations (at most 100), by conversation id; 0 where they never read. */
export async function readMarkers(deps: Deps, conversationIds: string[], userId: string): Promise<Map<string, number>> {
  const found = await readMarkersOf(
    deps,
    conversationIds.map((conversationId) => ({ conversationId, userId })),
  );
  return new Map(conversationIds.map((conversationId) => [conversationId, found.get(markerOf(conversationId, userId)) ?? 0]));
}

/** Where readMarkersOf answers a teammate's marker on a conversation. */
export const markerOf = (conversationId: string, userId: string) => `${conversationId}#${userId}`;

/** BatchGetItem's limit of keys a request. */
const BATCH_GET_KEYS = 100;

/** The markers of several teammates on several conversations, 100 a request, by markerOf; absent where never read. */
export async function readMarkersOf(deps: Deps, pairs: { conversationId: string; userId: string }[]): Promise<Map<string, number>> {
  const markers = new Map<string, number>();
  for (let start = 0; start < pairs.length; start += BATCH_GET_KEYS) {
    const keys = pairs.slice(start, start + BATCH_GET_KEYS).map(({ conversationId, userId }) => readMarkerKey(conversationId, userId));
    const found = await deps.store.doc.send(new BatchGetCommand({ RequestItems: { [table(deps)]: { Keys: keys } } }));
    for (const item of found.Responses?.[table(deps)] ?? [])
      markers.set(markerOf(String(item.conversationId), String(item.sk).slice('read#'.length)), Number(item.seq ?? 0));
  }
  return markers;
}
