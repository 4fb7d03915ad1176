import { DomainError } from '@service/shared';
import type { Teammate } from '@service/shared/live-conversation';
import { getAgent } from '../agents/agents';
import { appendEntryOnce, openConversation } from '../conversations/conversations';
import { readConversation } from '../conversations/conversation-state';
import { announceMessage, assignConversation } from '../conversations/handling';
import type { Deps } from '../../infra/deps';
import { mailSeed } from './mail-view';
import { readInboundMail, updateInboundMail, type InboundMailItem } from './repository';
import { customerVisitorId } from './thread-mail';

/**
 * A teammate's decision on a held mail (thread-mail.ts holds a stranger's mail to a conversation's address, or one
 * failing DMARC): accepted, it joins the conversation it was written to as the customer's entry, or starts a
 * conversation of its own with its sender (claimed by that teammate); dismissed, it stays a note. The decision is
 * recorded first, so a retry after a crash finishes the same one; the entry is stored once.
 */

type Scope = { workspaceId: string; conversationId: string };

async function heldMail(deps: Deps, scope: Scope, mailId: string): Promise<InboundMailItem> {
  const mail = await readInboundMail(deps, mailId);
  if (mail?.workspaceId !== scope.workspaceId || mail.conversationId !== scope.conversationId || !['held', 'accepted', 'dismissed'].includes(mail.state)) {
    throw new DomainError('NOT_FOUND', `No held mail ${mailId} in conversation ${scope.conversationId}`, { field: 'mail_id' });
  }
  return mail;
}

export async function acceptHeldMail(deps: Deps, scope: Scope, mailId: string, into: 'conversation' | 'new', by: Teammate | undefined): Promise<string> {
  let mail = await heldMail(deps, scope, mailId);
  if (mail.state === 'dismissed') throw new DomainError('VALIDATION_ERROR', `Mail ${mailId} was dismissed`, { field: 'mail_id' });
  if (mail.state === 'held') {
    if (into === 'new' && (!by || !mail.from))
      throw new DomainError(
        'VALIDATION_ERROR',
        by
          ? 'The mail has no sender to start a conversation with'
          : 'A conversation of its own is claimed by the signed-in teammate: an API key claims nothing',
        { field: 'into' },
      );
    // A new conversation's id is the mail's, as a mail that starts one has (thread-mail.ts): accepting again opens the same one.
    mail =
      (await updateInboundMail(deps, mailId, ['held'], { state: 'accepted', acceptedInto: into === 'new' ? mail.mailId : scope.conversationId })) ??
      (await heldMail(deps, scope, mailId));
  }
  const target = mail.acceptedInto ?? scope.conversationId;
  if (target !== scope.conversationId) {
    const agent = await getAgent(deps, mail.workspaceId, mail.agentId);
    await openConversation(deps, {
      conversationId: target,
      agentId: agent.id,
      workspaceId: agent.workspaceId,
      visitorId: customerVisitorId(agent.workspaceId, mail.from!),
      locale: agent.locale,
      email: { address: mail.from!, subject: mail.subject || '(no subject)' },
    });
  }
  const entry = await appendEntryOnce(deps, target, `accepted:${mailSeed(mailId)}`, { role: 'user', content: mail.text || mail.subject || '(empty mail)' });
  let meta = await readConversation(deps, mail.workspaceId, target);
  if (target !== scope.conversationId && by && meta.handler !== 'people') meta = await assignConversation(deps, mail.workspaceId, target, by);
  await announceMessage(deps, meta, { ...entry, role: 'user' });
  return target;
}

export async function dismissHeldMail(deps: Deps, scope: Scope, mailId: string): Promise<void> {
  const mail = await heldMail(deps, scope, mailId);
  if (mail.state === 'accepted') throw new DomainError('VALIDATION_ERROR', `Mail ${mailId} was accepted`, { field: 'mail_id' });
  if (mail.state === 'held' && !(await updateInboundMail(deps, mailId, ['held'], { state: 'dismissed' }))) await dismissHeldMail(deps, scope, mailId);
}
