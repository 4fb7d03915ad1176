import { DomainError } from '@service/shared';
import type { Deps } from '../../infra/deps';
import { availableAt, readAvailability } from './availability';
import { deleteClaimDue, putClaimDue, queryClaimsDue } from './availability-repository';
import { announceConversation } from './conversation-signal';
import { noteInboxChange } from './inbox-feed';
import { notFound, readConversation } from './conversation-state';
import { appendEntry } from './conversations';
import { conversationExpiry } from './retention';
import { fallbackPhrases } from './fallback-phrases';
import { messageIdOf, putEmailRequest, putMessageOnce, putVisitorEmail, type ConversationMetaItem, type StoredMessage } from './repository';

/**
 * The e-mail fallback (issue 29): a conversation passed to people when nobody is available (outside the workspace's
 * business hours, or away), or one no teammate claimed within the claim timeout, gets the agent's fixed message asking
 * for an e-mail address; the address the visitor leaves is kept on the conversation, which waits in the inbox.
 */

/** The conversation's streams and the workspace's inboxes hear of the stored request. */
async function told(deps: Deps, workspaceId: string, conversationId: string): Promise<void> {
  announceConversation(conversationId);
  await noteInboxChange(deps, workspaceId, conversationId);
}

/** How many times the request is decided again when another write to the conversation came first. */
const RETRIES = 5;

/**
 * Asks the visitor for an e-mail address, once, if the conversation still waits for a teammate (handler `people`,
 * nobody claimed it). The request is an `email_requested` entry, written in the conversation's `language`. A retry
 * after a crash stores the entry an earlier attempt recorded.
 */
export async function requestEmail(deps: Deps, conversationId: string, language: string): Promise<ConversationMetaItem> {
  for (let attempt = 0; attempt < RETRIES; attempt++) {
    const meta = await readConversation(deps, undefined, conversationId);
    if (meta.emailRequest) {
      if (await putMessageOnce(deps, conversationId, meta.emailRequest, await conversationExpiry(deps, meta.workspaceId, deps.now())))
        await told(deps, meta.workspaceId, conversationId);
      return meta;
    }
    if (meta.handler !== 'people' || meta.assignee) return meta;
    const now = deps.now();
    const entry: StoredMessage = {
      messageId: messageIdOf(Number(meta.messageCount ?? 0) + 1),
      role: 'event',
      event: 'email_requested',
      content: fallbackPhrases(language).askEmail,
      createdAt: now.toISOString(),
    };
    const updated = await putEmailRequest(deps, meta, entry, language);
    if (!updated) continue;
    await putMessageOnce(deps, conversationId, entry, await conversationExpiry(deps, meta.workspaceId, now));
    await told(deps, meta.workspaceId, conversationId);
    return updated;
  }
  throw new DomainError('RATE_LIMITED', 'The conversation is changing too fast; try again', { field: 'conversation_id', retryAfterSeconds: 1 });
}

/**
 * What follows a conversation's passing to people: nobody available now, the e-mail fallback at once; available
 * with a claim timeout, the conversation is due for the fallback then (the conversation sweeper, sweepUnclaimed).
 */
export async function afterHandoff(deps: Deps, meta: ConversationMetaItem, language: string): Promise<ConversationMetaItem> {
  const settings = await readAvailability(deps, meta.workspaceId);
  const now = deps.now();
  if (!availableAt(settings, now)) return requestEmail(deps, meta.conversationId, language);
  if (settings.claim_timeout_minutes !== null) {
    const dueAt = new Date(now.getTime() + settings.claim_timeout_minutes * 60_000);
    // A due item holds no visitor data and is gone a day after it is due (swept or not).
    await putClaimDue(
      deps,
      { conversationId: meta.conversationId, workspaceId: meta.workspaceId, language },
      dueAt,
      Math.floor(dueAt.getTime() / 1000) + 24 * 3600,
    );
  }
  return meta;
}

/** Claim timeouts one sweep handles at most; the next sweep (a minute later) takes the rest. */
const SWEEP_BATCH = 50;

/**
 * The claim timeouts that are due: each conversation nobody claimed meanwhile gets the e-mail fallback; the pointer
 * goes once that is stored (a crash before leaves it for the next sweep). How many were due.
 */
export async function sweepUnclaimed(deps: Deps): Promise<number> {
  const due = await queryClaimsDue(deps, deps.now(), SWEEP_BATCH);
  for (const claim of due) {
    await requestEmail(deps, claim.conversationId, claim.language).catch((error: unknown) => {
      // A conversation gone (expired) has nothing left to ask.
      if (!(error instanceof DomainError && error.code === 'CONVERSATION_NOT_FOUND')) throw error;
    });
    await deleteClaimDue(deps, claim.sk);
  }
  return due.length;
}

/**
 * The visitor leaves their e-mail address (the widget's field, after the agent asked for it): kept on the
 * conversation, and the agent thanks them, in the conversation's language. The thanks, stored as the agent's entry.
 */
export async function leaveEmail(deps: Deps, conversationId: string, email: string, language: string): Promise<StoredMessage> {
  if (!(await putVisitorEmail(deps, conversationId, email))) throw notFound(conversationId);
  return appendEntry(deps, conversationId, { role: 'assistant', content: fallbackPhrases(language).thanks(email) });
}
